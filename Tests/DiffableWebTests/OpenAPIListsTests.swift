import DiffableDataSources
import Foundation
import MicroHTTP
@testable import DiffableWeb
@testable import DiffableWebDemos
import Testing

/// A list in the typed API with a parameter of every kind.
private struct Pantry: WebList {
    static let title = "Pantry"
    static let cellTemplate = "cells/number"

    var shelves = ["rice": 2, "tea": 1]

    enum Shelf: String, CaseIterable, Codable, Sendable { case top, middle, bottom }

    enum Action: WebListAction {
        case add(item: String, shelf: Int?)
        case addAll(items: [String])
        case move(item: String, to: Shelf)
        case scale(factor: Double)
        case tidy(dryRun: Bool?)
        case clear
    }

    struct Cell: Encodable { let id: String; let number: Int; let label: String }

    func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot(["pantry": ["rice", "tea"]]) }

    func cell(for item: String) -> Cell? { shelves[item].map { Cell(id: item, number: $0, label: "\(item) (shelf \($0))") } }

    mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .add(let item, let shelf):
            shelves[item] = shelf ?? 1
            try list.appendItems([item])
        case .addAll(let items):
            for item in items { shelves[item] = 1 }
            try list.appendItems(items)
        case .move, .scale, .tidy:
            break
        case .clear:
            list.deleteAllItems()
        }
    }
}

@Suite("OpenAPI: each list's actions and items are documented")
struct OpenAPIListsTests {
    static func base() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Sources/DiffableWeb/Resources/openapi.json"))
    }

    static func document(_ demos: [DemoDescriptor], itemKeys: [String: [String]] = [:]) throws -> [String: Any] {
        let data = try OpenAPIDocument.build(base: try base(), demos: demos, itemKeys: itemKeys)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A path's operation.
    static func operation(_ document: [String: Any], _ path: String, _ method: String = "post") throws -> [String: Any] {
        let paths = try #require(document["paths"] as? [String: Any])
        let item = try #require(paths[path] as? [String: Any], "no path \(path)")
        return try #require(item[method] as? [String: Any], "no \(method) on \(path)")
    }

    /// The body schema of `list`'s `action`: its operation's `$ref`, resolved.
    static func input(_ document: [String: Any], _ list: String, _ action: String) throws -> [String: Any] {
        let run = try operation(document, OpenAPIDocument.actionPath(list: list, action: action))
        let body = try #require(run["requestBody"] as? [String: Any])
        let json = try #require((body["content"] as? [String: Any])?["application/json"] as? [String: Any])
        let reference = try #require((json["schema"] as? [String: Any])?["$ref"] as? String)
        #expect(reference == "#/components/schemas/\(list).\(action).Input")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        return try #require(schemas["\(list).\(action).Input"] as? [String: Any])
    }

    /// A parameter's schema: its own type (the first branch) and the other spellings it takes.
    struct Parameter {
        var own: [String: Any]
        var spellings: [[String: Any]]
        var description: String?
        var type: String? { own["type"] as? String }
        var takesNull: Bool { spellings.contains { $0["type"] as? String == "null" } }

        init(_ schema: [String: Any]) {
            description = schema["description"] as? String
            if let branches = schema["anyOf"] as? [[String: Any]], let first = branches.first {
                own = first
                spellings = Array(branches.dropFirst())
            } else {
                own = schema
                spellings = []
            }
        }
    }

    static func parameters(_ input: [String: Any]) -> [String: Parameter] {
        (input["properties"] as? [String: [String: Any]] ?? [:]).mapValues(Parameter.init)
    }

    static func required(_ input: [String: Any]) -> Set<String> { Set(input["required"] as? [String] ?? []) }

    @Test("every built-in list's every action has its own path, operationId and body naming its parameters")
    func everyAction() throws {
        let demos = try BuiltInDemos.table(mountainCount: nil)
        let document = try Self.document(demos)
        var operationIDs: [String] = []
        for demo in demos {
            for action in demo.actions {
                let run = try Self.operation(document, OpenAPIDocument.actionPath(list: demo.name, action: action.name))
                #expect(run["operationId"] as? String == "\(demo.name).\(action.name)")
                #expect(run["tags"] as? [String] == [demo.name])
                #expect(run["description"] as? String == action.description)
                let input = try Self.input(document, demo.name, action.name)
                #expect(Set(Self.parameters(input).keys) == Set(action.parameters.map(\.name)), "\(demo.name).\(action.name)")
                #expect(Self.required(input) == Set(action.parameters.filter(\.required).map(\.name)), "\(demo.name).\(action.name)")
                let body = try #require(run["requestBody"] as? [String: Any])
                #expect(body["required"] as? Bool == action.parameters.contains(where: \.required))
                let generic = try Self.operation(document, OpenAPIDocument.actionPath)
                #expect((run["responses"] as? NSDictionary) == (generic["responses"] as? NSDictionary), "the generic action's answers")
            }
        }
        for item in (document["paths"] as? [String: [String: Any]] ?? [:]).values {
            for case let operation as [String: Any] in item.values { operationIDs += [operation["operationId"] as? String].compactMap { $0 } }
        }
        #expect(Set(operationIDs).count == operationIDs.count, "operationIds are unique")
    }

    @Test("Numbers: append's count is an optional integer; move's from and to required positions; reorder's direction up or down")
    func numbers() throws {
        let document = try Self.document(try BuiltInDemos.table(mountainCount: nil))
        let append = try Self.input(document, "numbers", "append")
        let count = try #require(Self.parameters(append)["count"])
        #expect(count.type == "integer")
        #expect(count.description == "How many (1…10000, default 1)")
        #expect(count.takesNull && Self.required(append).isEmpty)
        #expect(count.spellings.contains { $0["type"] as? String == "string" && $0["pattern"] as? String == OpenAPIDocument.integerText },
                "its digits as text, as the command line sends it")

        let move = try Self.input(document, "numbers", "move")
        #expect(Self.required(move) == ["from", "to"])
        for name in ["from", "to"] {
            let position = try #require(Self.parameters(move)[name])
            #expect(position.type == "integer")
            #expect(position.own["minimum"] as? Int == 0, "a position counts from 0 in the API")
            #expect(!position.takesNull, "null is a missing required parameter")
        }

        let reorder = try Self.input(document, "numbers", "reorder")
        let direction = try #require(Self.parameters(reorder)["direction"])
        #expect(direction.type == "string")
        #expect(direction.own["enum"] as? [String] == ["up", "down"])
        #expect(Self.required(reorder) == ["item"])
        let example = try Self.operation(document, OpenAPIDocument.actionPath(list: "numbers", action: "append"))["requestBody"]
        #expect((((example as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["example"] as? [String: Int]
                == ["count": 3], "the page's example request")
        let removeLast = try Self.input(document, "numbers", "removeLast")
        #expect(Self.parameters(removeLast).isEmpty && Self.required(removeLast).isEmpty)
    }

    @Test("Photos, URL stream, Mountains: a choice, a list of strings, a free text")
    func otherKinds() throws {
        let document = try Self.document(try BuiltInDemos.table(mountainCount: nil))
        let setLayout = try Self.input(document, "photos", "setLayout")
        let layout = try #require(Self.parameters(setLayout)["layout"])
        #expect(layout.own["enum"] as? [String] == PhotoLayout.allCases.map(\.rawValue))
        #expect(Self.required(setLayout) == ["layout"])
        #expect(layout.spellings.isEmpty, "no choice reads as a number or a boolean, and it is required")

        let publish = try Self.input(document, "urls", "publish")
        let urls = try #require(Self.parameters(publish)["urls"])
        #expect(urls.type == "array")
        #expect((urls.own["items"] as? [String: Any])?["type"] as? String == "string")
        #expect(Self.required(publish) == ["urls"])

        let search = try Self.input(document, "mountains", "search")
        let query = try #require(Self.parameters(search)["query"])
        #expect(query.type == "string")
        #expect(query.spellings.contains { $0["type"] as? [String] == ["number", "boolean"] }, "5 searches for “5”")
        #expect(query.takesNull)
    }

    @Test("a typed list's actions: each parameter's type, whether it is required, its choices")
    func webList() throws {
        let document = try Self.document([try Pantry.descriptor()])
        let add = try Self.input(document, "pantry", "add")
        #expect(Self.parameters(add)["item"]?.type == "string")
        #expect(Self.parameters(add)["shelf"]?.type == "integer")
        #expect(Self.parameters(add)["shelf"]?.own["minimum"] == nil, "not a position")
        #expect(Self.required(add) == ["item"])
        let addAll = try Self.input(document, "pantry", "addAll")
        #expect(Self.parameters(addAll)["items"]?.type == "array")
        let move = try Self.input(document, "pantry", "move")
        #expect(Self.parameters(move)["to"]?.own["enum"] as? [String] == ["top", "middle", "bottom"])
        #expect(Self.required(move) == ["item", "to"])
        let scale = try Self.input(document, "pantry", "scale")
        #expect(Self.parameters(scale)["factor"]?.type == "number")
        let tidy = try Self.input(document, "pantry", "tidy")
        let dryRun = try #require(Self.parameters(tidy)["dryRun"])
        #expect(dryRun.type == "boolean")
        #expect(dryRun.takesNull && Self.required(tidy).isEmpty)
        let clear = try Self.input(document, "pantry", "clear")
        #expect(Self.parameters(clear).isEmpty)
        let body = try #require(try Self.operation(document, OpenAPIDocument.actionPath(list: "pantry", action: "clear"))["requestBody"] as? [String: Any])
        #expect(body["required"] as? Bool == false, "an action without parameters takes no body")
    }

    @Test("each list's snapshot answer names its items' data keys")
    func items() throws {
        let demos = [try Pantry.descriptor()]
        let keys = OpenAPIDocument.itemKeys(of: try #require(demos.first).make())
        #expect(keys == ["label", "number"], "a cell's values less its own identifier")
        let document = try Self.document(demos, itemKeys: ["pantry": keys])
        let get = try Self.operation(document, OpenAPIDocument.snapshotPath(list: "pantry"), "get")
        #expect(get["operationId"] as? String == "getSnapshot.pantry")
        let ok = try #require((get["responses"] as? [String: Any])?["200"] as? [String: Any])
        let json = try #require((ok["content"] as? [String: Any])?["application/json"] as? [String: Any])
        #expect((json["schema"] as? [String: Any])?["$ref"] as? String == "#/components/schemas/pantry.Snapshot")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let item = try #require(schemas["pantry.Item"] as? [String: Any])
        let data = try #require((item["properties"] as? [String: Any])?["data"] as? [String: Any])
        #expect(Set((data["properties"] as? [String: Any])?.keys ?? [:].keys) == ["label", "number"])
        #expect(data["required"] == nil, "an item a script put in the list has no data")
        let put = try Self.operation(document, OpenAPIDocument.snapshotPath(list: "pantry"), "put")
        #expect(put["operationId"] as? String == "putSnapshot.pantry", "the concrete path keeps every method of the templated one")
    }

    @Test("everything added for the lists is marked x-list; the rest is the file with the lists' names")
    func marked() throws {
        let demos = try BuiltInDemos.table(mountainCount: nil) + [try Pantry.descriptor()]
        let document = try Self.document(demos)
        let file = try #require(try JSONSerialization.jsonObject(with: try Self.base()) as? [String: Any])
        let filePaths = try #require(file["paths"] as? [String: Any])
        let fileSchemas = try #require((file["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (path, item) in try #require(document["paths"] as? [String: [String: Any]]) where filePaths[path] == nil {
            #expect(demos.contains { $0.name == item["x-list"] as? String }, "\(path)")
        }
        for (name, schema) in try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        where fileSchemas[name] == nil {
            #expect(demos.contains { $0.name == schema["x-list"] as? String }, "\(name)")
        }
        #expect((document["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == demos.map(\.name))
    }

    @Test("an action whose name is not a plain path segment is documented by the generic path only")
    func unusualName() throws {
        var demo = try Pantry.descriptor()
        demo.name = "odd"
        demo.actions = [ActionDescriptor(name: "a/b", description: "slashed"), ActionDescriptor(name: "ok", description: "plain")]
        let document = try Self.document([demo])
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(paths[OpenAPIDocument.actionPath(list: "odd", action: "ok")] != nil)
        #expect(!paths.keys.contains { $0.hasSuffix("/a/b") })
    }

    @Test("the API takes what the schema describes: an integer as text, a string as a number, null as absent; it refuses an array for a scalar")
    func schemaIsWhatTheAPITakes() async throws {
        let pantry = try Pantry.descriptor()
        let app = try await makeApp { $0.demos = [pantry] }
        let created = await app.handle(Request(method: .post, target: "/api/sessions"))
        let id = try #require(created.json?["id"] as? String)
        func run(_ action: String, _ body: String) async -> Response {
            await app.handle(Request(method: .post, target: "/api/sessions/\(id)/demos/pantry/actions/\(action)",
                                     headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        }
        for body in [#"{"item":"oats","shelf":3}"#, #"{"item":"figs","shelf":" 2 "}"#, #"{"item":7,"shelf":null}"#, #"{"item":true,"other":1}"#] {
            #expect(await run("add", body).status == .ok, "\(body)")
        }
        #expect(await run("tidy", #"{"dryRun":"Yes"}"#).status == .ok)
        #expect(await run("tidy", #"{"dryRun":1}"#).status == .ok)
        #expect(await run("addAll", #"{"items":"a\nb"}"#).status == .ok, "a list as lines")
        for (action, body) in [("add", #"{"item":["oats"]}"#), ("add", #"{"item":"x","shelf":"three"}"#), ("add", #"{"shelf":1}"#),
                               ("add", #"{"item":"x","other":[1]}"#), ("move", #"{"item":"rice","to":"attic"}"#),
                               ("tidy", #"{"dryRun":2}"#), ("scale", #"{"factor":true}"#)] {
            #expect(await run(action, body).status == .badRequest, "\(action) \(body)")
        }
    }

    @Test("the served document lists the items' data keys of every list (made once, on first use)")
    func served() async throws {
        let app = try await makeApp()
        let document = try #require(await app.handle(Request(target: "/openapi.json")).json)
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let item = try #require(schemas["numbers.Item"] as? [String: Any])
        let data = try #require((item["properties"] as? [String: Any])?["data"] as? [String: Any])
        #expect(Set((data["properties"] as? [String: Any])?.keys ?? [:].keys) == ["label", "number"])
        let mountains = try #require(((schemas["mountains.Item"] as? [String: Any])?["properties"] as? [String: Any])?["data"] as? [String: Any])
        #expect(Set((mountains["properties"] as? [String: Any])?.keys ?? [:].keys) == ["height_m", "name"])
    }
}
