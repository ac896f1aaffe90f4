import DiffableDataSources
import Foundation
import MicroHTTP
@testable import DiffableWeb
import Testing

/// A shopping list in the typed API, its cells drawn with the numbers' template.
private struct Shopping: WebList {
    static let title = "Shopping"
    static let cellTemplate = "cells/number"

    var aisles = ["bread": 1, "milk": 4, "apples": 2]
    var added = 0

    enum Order: String, CaseIterable, Codable, Sendable { case aisle, name }

    enum Action: WebListAction {
        case add(item: String, aisle: Int?)
        case addAll(items: [String])
        case checkOffFirst
        case sort(by: Order)
        case fail(reason: String)
    }

    struct Cell: Encodable { let id: String; let number: Int; let label: String; let pinned: Bool? }

    func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot(["list": ["bread", "milk", "apples"]]) }

    func cell(for item: String) -> Cell? {
        aisles[item].map { Cell(id: item, number: $0, label: "\(item) (aisle \($0))", pinned: $0 == 1 ? true : nil) }
    }

    mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .add(let item, let aisle):
            aisles[item] = aisle ?? 9
            added += 1
            try list.appendItems([item])
        case .addAll(let items):
            for item in items { aisles[item] = 9 }
            try list.appendItems(items)
        case .checkOffFirst:
            if let first = list.itemIdentifiers.first { try list.deleteItems([first]) }
        case .sort(let order):
            try list.sortItems { order == .name ? $0 < $1 : (aisles[$0] ?? 0, $0) < (aisles[$1] ?? 0, $1) }
        case .fail(let reason):
            aisles = [:]
            throw ActionError.unprocessable(code: "refused", message: reason)
        }
    }

    func status(of list: Snapshot<String, String>) -> String { "\(list.numberOfItems) to buy" }
}

/// A list whose items are integers.
private struct Counter: WebList {
    static let title = "Counter"
    static let cellTemplate = "cells/number"
    var next = 4
    enum Action: WebListAction { case increment, drop(item: Int) }
    struct Cell: Encodable { let id: String; let number: Int; let label: String }

    func initialSnapshot() throws -> Snapshot<Int, Int> { try Snapshot([0: [1, 2, 3]]) }
    func cell(for item: Int) -> Cell? { Cell(id: "\(item)", number: item, label: "Item \(item)") }
    mutating func perform(_ action: Action, on list: inout Snapshot<Int, Int>) throws {
        switch action {
        case .increment:
            try list.appendItems([next])
            next += 1
        case .drop(let item):
            try list.deleteItems([item])
        }
    }
}

/// A list of three sections of 60 items: its no-JavaScript pages of 100 start and end inside sections.
private struct Aisles: WebList {
    static let title = "Aisles"
    static let cellTemplate = "cells/number"
    enum Action: WebListAction { case none }
    struct Cell: Encodable { let id: String; let number: Int; let label: String }

    func initialSnapshot() throws -> Snapshot<String, String> {
        var list = Snapshot<String, String>()
        for aisle in 0..<3 {
            try list.appendSections(["aisle-\(aisle)"])
            try list.appendItems((0..<60).map { "a\(aisle)-\($0)" }, toSection: "aisle-\(aisle)")
        }
        return list
    }

    func cell(for item: String) -> Cell? { Cell(id: item, number: 0, label: "Item \(item)") }
    mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {}
}

private enum NotAnEnum: WebListAction {
    case upload(at: Date)
}

private enum Unnamed: WebListAction {
    case add(String)
}

@Suite("Typed lists (WebList)")
struct WebListTests {
    @Test("the actions are the enum's cases, in order; parameters are its named associated values, typed")
    func schema() throws {
        let schema = try ActionSchema.of(Shopping.Action.self)
        #expect(schema.actions.map(\.name) == ["add", "addAll", "checkOffFirst", "sort", "fail"])
        #expect(schema.action(named: "add")?.parameters == [
            .init(name: "item", type: .string, required: true), .init(name: "aisle", type: .integer, required: false),
        ])
        #expect(schema.action(named: "addAll")?.parameters == [.init(name: "items", type: .array, required: true)])
        #expect(schema.action(named: "checkOffFirst")?.parameters == [])
        #expect(schema.action(named: "sort")?.parameters == [.init(name: "by", type: .string, required: true, choices: ["aisle", "name"])])
        #expect(try ActionSchema.of(Counter.Action.self).actions.map(\.name) == ["increment", "drop"])
    }

    @Test("a parameter the API cannot carry is refused when the app starts, naming it")
    func unsupported() {
        #expect(throws: WebListError.self) { try ActionSchema.of(NotAnEnum.self) }
        do {
            _ = try ActionSchema.of(NotAnEnum.self)
        } catch {
            #expect("\(error)".contains("parameter at: Date"), "\(error)")
        }
        #expect(throws: WebListError.unsupportedAction("add's associated value needs a name (case add(item: String))")) {
            try ActionSchema.of(Unnamed.self)
        }
    }

    @Test("coding keys' cases are read for enums of 1, 3 and 300 cases", arguments: [1, 3, 300])
    func codingKeyCases(count: Int) {
        switch count {
        case 1: #expect(CodingKeyCases.all(One.self)?.map(\.stringValue) == ["only"])
        case 3: #expect(CodingKeyCases.all(Three.self)?.map(\.stringValue) == ["a", "b", "c"])
        default:
            let names = CodingKeyCases.all(Many.self)?.map(\.stringValue)
            #expect(names?.count == 300 && names?.first == "k0" && names?.last == "k299")
        }
        #expect(CodingKeyCases.all(AnyKey.self) == nil, "a struct key has no cases to read")
    }

    @Test("a request's parameters become a typed action; a missing or mistyped one names itself")
    func decoding() throws {
        let schema = try ActionSchema.of(Shopping.Action.self)
        func decode(_ name: String, _ values: [String: String], lists: [String: [String]] = [:]) throws(ActionError) -> Shopping.Action {
            try ActionDecoding.decode(Shopping.Action.self, name: name, parameters: ActionParameters(values, lists: lists), schema: schema)
        }
        guard case .add("eggs", 3) = try decode("add", ["item": "eggs", "aisle": " 3 "]) else { Issue.record("add"); return }
        guard case .add("eggs", nil) = try decode("add", ["item": "eggs"]) else { Issue.record("add without aisle"); return }
        guard case .addAll(["a", "b"]) = try decode("addAll", [:], lists: ["items": ["a", "b"]]) else { Issue.record("addAll"); return }
        guard case .addAll(["a", "b"]) = try decode("addAll", ["items": "a\nb\n"]) else { Issue.record("addAll from a form"); return }
        guard case .sort(.name) = try decode("sort", ["by": "name"]) else { Issue.record("sort"); return }
        #expect(throws: ActionError.missingParameter("item")) { try decode("add", [:]) }
        #expect(throws: ActionError.invalidParameter("aisle", "must be an integer")) { try decode("add", ["item": "x", "aisle": "two"]) }
        #expect(throws: ActionError.invalidParameter("by", "must be one of aisle, name")) { try decode("sort", ["by": "price"]) }
        #expect(throws: ActionError.unknownAction("remove")) { try decode("remove", [:]) }
    }

    @Test("a cell's Encodable value is the template's flat values; nil is left out")
    func cellValues() throws {
        let values = try CellValues.encode(Shopping.Cell(id: "milk", number: 4, label: "milk (aisle 4)", pinned: nil))
        #expect(values == ["id": "milk", "number": "4", "label": "milk (aisle 4)"])
        #expect(try CellValues.encode(Shopping.Cell(id: "b", number: 1, label: "b", pinned: true))["pinned"] == "true")
    }

    @Test("the served OpenAPI document names the registered lists and their actions")
    func document() async throws {
        let lists = [try Shopping.descriptor(), try Counter.descriptor()]
        let app = try await makeApp { $0.demos = lists }
        let response = await app.handle(Request(target: "/openapi.json"))
        let document = try #require(response.json)
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let run = try #require(paths["/api/sessions/{id}/demos/{demo}/actions/{action}"])
        let parameters = try #require(run["parameters"] as? [[String: Any]])
        func names(_ parameter: String) -> [String]? {
            (parameters.first { $0["name"] as? String == parameter }?["schema"] as? [String: Any])?["enum"] as? [String]
        }
        #expect(names("demo") == ["shopping", "counter"])
        #expect(names("action") == ["add", "addAll", "checkOffFirst", "sort", "fail", "increment", "drop"])
        let summary = (run["post"] as? [String: Any])?["summary"] as? String
        #expect(summary == "Run a demo action (Shopping: add, addAll, checkOffFirst, sort, fail; Counter: increment, drop)")
        let snapshot = try #require(paths["/api/sessions/{id}/demos/{demo}/snapshot"]?["parameters"] as? [[String: Any]])
        #expect((snapshot.first { $0["name"] as? String == "demo" }?["schema"] as? [String: Any])?["enum"] as? [String] == ["shopping", "counter"])
    }

    @Test("the page without JavaScript reads a list of several sections page by page, a page ending inside a section")
    func fallbackPagesAcrossSections() async throws {
        let app = try await makeApp { $0.demos = [try Aisles.descriptor()] }
        for (page, first, last) in [(1, "a0-0", "a1-39"), (2, "a1-40", "a2-59")] {
            let response = await app.handle(Request(target: "/demos/aisles?page=\(page)"))
            #expect(response.status == .ok)
            let fallback = response.text.components(separatedBy: "class=\"fallback-list\"").last ?? ""
            #expect(fallback.contains("Item \(first)<") && fallback.contains("Item \(last)<"), "page \(page): \(first) … \(last)")
        }
    }

    @Test("served: actions over the API change the list and its state; a refused action changes neither; state survives a restart")
    func served() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lists = [try Shopping.descriptor(), try Counter.descriptor()]
        func app() async throws -> WebApp {
            try await makeApp { configuration in
                configuration.demos = lists
                configuration.stateDirectory = directory.path
            }
        }
        let first = try await app()
        let created = await first.handle(Request(method: .post, target: "/api/sessions"))
        let id = try #require(created.json?["id"] as? String)
        func act(_ app: WebApp, _ list: String, _ action: String, _ body: String) async -> Response {
            await app.handle(Request(method: .post, target: "/api/sessions/\(id)/demos/\(list)/actions/\(action)",
                                     headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        }
        func items(_ app: WebApp, _ list: String) async -> [String] {
            let snapshot = await app.handle(Request(target: "/api/sessions/\(id)/demos/\(list)/snapshot"))
            let sections = snapshot.json?["sections"] as? [[String: Any]] ?? []
            return sections.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        }
        #expect(await act(first, "shopping", "add", #"{"item":"eggs","aisle":2}"#).status == .ok)
        #expect(await act(first, "shopping", "sort", #"{"by":"aisle"}"#).status == .ok)
        #expect(await items(first, "shopping") == ["bread", "apples", "eggs", "milk"])
        // Refused: a duplicate (422 naming it), a thrown error, a missing parameter; nothing changes.
        let duplicate = await act(first, "shopping", "add", #"{"item":"milk"}"#)
        #expect(duplicate.status == .unprocessableContent && duplicate.text.contains("milk"))
        let thrown = await act(first, "shopping", "fail", #"{"reason":"no"}"#)
        #expect(thrown.status == .unprocessableContent && thrown.json?["error"] as? String == "refused")
        let missing = await act(first, "shopping", "add", #"{}"#)
        #expect(missing.status == .badRequest && missing.text.contains("item"))
        #expect(await items(first, "shopping") == ["bread", "apples", "eggs", "milk"])
        #expect(await act(first, "counter", "increment", "{}").status == .ok)
        #expect(await act(first, "counter", "drop", #"{"item":2}"#).status == .ok)
        #expect(await items(first, "counter") == ["1", "3", "4"])

        // A restart: the items and the state (the aisles of what was added) come back.
        let second = try await app()
        #expect(await items(second, "shopping") == ["bread", "apples", "eggs", "milk"])
        #expect(await act(second, "shopping", "sort", #"{"by":"name"}"#).status == .ok)
        #expect(await items(second, "shopping") == ["apples", "bread", "eggs", "milk"])
        #expect(await act(second, "shopping", "sort", #"{"by":"aisle"}"#).status == .ok)
        #expect(await items(second, "shopping") == ["bread", "apples", "eggs", "milk"], "eggs kept its aisle 2 across the restart")
        #expect(await act(second, "counter", "increment", "{}").status == .ok)
        #expect(await items(second, "counter") == ["1", "3", "4", "5"])
    }
}

private enum One: CodingKey { case only }
private enum Three: String, CodingKey { case a, b, c }
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
private enum Many: CodingKey { case k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, k19, k20, k21, k22, k23, k24, k25, k26, k27, k28, k29, k30, k31, k32, k33, k34, k35, k36, k37, k38, k39, k40, k41, k42, k43, k44, k45, k46, k47, k48, k49, k50, k51, k52, k53, k54, k55, k56, k57, k58, k59, k60, k61, k62, k63, k64, k65, k66, k67, k68, k69, k70, k71, k72, k73, k74, k75, k76, k77, k78, k79, k80, k81, k82, k83, k84, k85, k86, k87, k88, k89, k90, k91, k92, k93, k94, k95, k96, k97, k98, k99, k100, k101, k102, k103, k104, k105, k106, k107, k108, k109, k110, k111, k112, k113, k114, k115, k116, k117, k118, k119, k120, k121, k122, k123, k124, k125, k126, k127, k128, k129, k130, k131, k132, k133, k134, k135, k136, k137, k138, k139, k140, k141, k142, k143, k144, k145, k146, k147, k148, k149, k150, k151, k152, k153, k154, k155, k156, k157, k158, k159, k160, k161, k162, k163, k164, k165, k166, k167, k168, k169, k170, k171, k172, k173, k174, k175, k176, k177, k178, k179, k180, k181, k182, k183, k184, k185, k186, k187, k188, k189, k190, k191, k192, k193, k194, k195, k196, k197, k198, k199, k200, k201, k202, k203, k204, k205, k206, k207, k208, k209, k210, k211, k212, k213, k214, k215, k216, k217, k218, k219, k220, k221, k222, k223, k224, k225, k226, k227, k228, k229, k230, k231, k232, k233, k234, k235, k236, k237, k238, k239, k240, k241, k242, k243, k244, k245, k246, k247, k248, k249, k250, k251, k252, k253, k254, k255, k256, k257, k258, k259, k260, k261, k262, k263, k264, k265, k266, k267, k268, k269, k270, k271, k272, k273, k274, k275, k276, k277, k278, k279, k280, k281, k282, k283, k284, k285, k286, k287, k288, k289, k290, k291, k292, k293, k294, k295, k296, k297, k298, k299 }
