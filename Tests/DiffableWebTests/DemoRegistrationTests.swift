import CompositionalLayout
import DiffableDataSources
import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// A list registered from outside the package: everything the web layer needs comes from its
/// descriptor (`Examples/CustomList` does the same from another package).
final class TinyDemo: Demo {
    static func descriptor(name: String = "tiny", templates: [String] = ["cells/number"]) -> DemoDescriptor {
        DemoDescriptor(
            name: name, title: "Tiny", summary: "Two items", cellTemplates: templates,
            actions: [ActionDescriptor(name: "rename", description: "Rename",
                                       parameters: [.init(name: "to", type: "string", required: true, description: "New name")]),
                      ActionDescriptor(name: "swapBoth", description: "Swap the two items"),
                      ActionDescriptor(name: "swapThenRefuse", description: "Swap the two items, then refuse")],
            pageQuery: PageQuery(name: "n", action: "rename", parameter: "to"),
            make: { TinyDemo() })
    }

    func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(["s"])
        try? snapshot.appendItems(["n1", "n2"])
        return snapshot
    }

    func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in LayoutSection.list(using: ListConfiguration(appearance: .plain), layoutEnvironment: environment) }
    }

    func cell(for item: String) -> CellContent? { CellContent(template: "cells/number", values: ["number": item, "label": "Tiny \(item)"]) }
    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        switch action {
        case "rename": _ = try parameters.requiredString("to")
        case "swapBoth":
            var snapshot = dataSource.snapshot()
            do { try snapshot.moveItem("n2", beforeItem: "n1") } catch { throw .snapshot(error) }
            dataSource.apply(snapshot, animatingDifferences: true)
        case "swapThenRefuse":
            try perform("swapBoth", parameters: parameters, on: dataSource)
            throw .unprocessable(code: "refused", message: "Swapped, then refused")
        default: throw .unknownAction(action)
        }
    }

    func status(of snapshot: Snapshot<String, String>) -> String { "\(snapshot.numberOfItems) items" }
    func pageValues() -> [String: String] { [:] }
}

@Suite("Demos: a list is registered by its descriptor alone")
struct DemoRegistrationTests {
    func app(_ demos: [DemoDescriptor]) async throws -> WebApp {
        var configuration = WebConfiguration(publicDirectory: packageRoot + "/Public", templatesDirectory: packageRoot + "/templates", demos: demos)
        configuration.testHooks = true
        configuration.extraTemplatesDirectories = [BuiltInDemos.templatesDirectory].compactMap { $0 }  // TinyDemo borrows `cells/number`
        return try await WebApp(configuration: configuration)
    }

    @Test("a demo the package does not know gets the generic page, a button per plain action, a script form per action with parameters, its routes and its query redirect")
    func genericDemo() async throws {
        let app = try await app([TinyDemo.descriptor()])
        let visitor = Visitor(app)
        let index = await visitor.send(.get, "/")
        #expect(index.text.contains(#"href="/demos/tiny""#))
        let page = await visitor.send(.get, "/demos/tiny")
        #expect(page.status == .ok)
        #expect(page.text.contains("Tiny n1"), "the demo's cells, rendered by the template it names")
        // An action that needs a parameter is for scripts: its form is in the script panel.
        #expect(page.text.contains(#"<form class="script-form" method="post" action="/demos/tiny/actions/rename" data-action="rename">"#))
        #expect(page.text.contains(#"<span class="script-field"><label for="script-rename-to">New name</label> <input id="script-rename-to" name="to" type="text" required></span>"#))
        #expect(page.text.contains(#"<form method="post" action="/demos/tiny/actions/swapBoth" data-action="swapBoth"><button type="submit">Swap both</button></form>"#))
        #expect(page.text.contains(#"actions/rename</code>"#), "the script example is the first action's")
        let swapped = await visitor.send(.post, "/demos/tiny/actions/swapBoth", json: "{}")
        #expect(swapped.json?["version"] as? Int == 2)
        #expect(visitor.list("tiny")?.dataSource.snapshot().itemIdentifiers == ["n2", "n1"])
        let redirect = await visitor.send(.post, "/demos/tiny/actions/rename", form: "to=a%20b")
        #expect(redirect.headers["Location"] == "/demos/tiny?n=a%20b", "the descriptor's page query, not a name the web layer knows")
        let missing = await visitor.send(.post, "/demos/tiny/actions/rename", json: "{}")
        #expect(missing.status == .badRequest && missing.json?["error"] as? String == "missing_parameter")
        #expect(await visitor.send(.get, "/demos/mountains").status == .notFound, "only the registered demos exist")
    }

    @Test("a parameter with a fixed set of values is a menu in the script panel's form, and listed with its choices")
    func choices() async throws {
        let visitor = Visitor(try await makeApp())
        let page = await visitor.send(.get, "/demos/explore")
        #expect(page.text.contains(#"<select id="script-shuffle-section" name="section" required><option>featured</option><option>new</option><option>all</option></select>"#))
        let actions = await visitor.send(.get, "/demos/explore/actions")
        #expect(actions.text.contains(#""choices":["featured","new","all"]"#))
    }

    @Test("a missing template, a repeated name or a name that is not a path segment stop the app at start, naming the culprit")
    func badRegistrations() async throws {
        await #expect { try await app([TinyDemo.descriptor(templates: ["cells/nowhere"])]) } throws: { error in
            "\(error)".contains("cells/nowhere.mustache")
        }
        await #expect { try await app([TinyDemo.descriptor(), TinyDemo.descriptor()]) } throws: { error in
            "\(error)".contains("“tiny”")
        }
        for name in ["", "Tiny", "a/b", "a b", "ü"] {
            await #expect { try await app([TinyDemo.descriptor(name: name)]) } throws: { error in
                (error as? ConfigurationError).map { "\($0)".contains("“\(name)”") } ?? false
            }
        }
    }

    @Test("an app's own template directory adds templates and replaces the package's of the same name")
    func extraTemplates() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dw-templates-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("cells"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<b>own {{label}}</b>".utf8).write(to: directory.appendingPathComponent("cells/number.mustache"))
        var configuration = WebConfiguration(publicDirectory: packageRoot + "/Public", templatesDirectory: packageRoot + "/templates",
                                             demos: [TinyDemo.descriptor()])
        configuration.extraTemplatesDirectories = [directory.path]
        let page = await Visitor(try await WebApp(configuration: configuration)).send(.get, "/demos/tiny")
        #expect(page.text.contains("<b>own Tiny n1</b>"))
    }

    @Test("cell kinds are strings on the wire and the layout's element kinds", arguments: [
        (CellKind.item, "item"), (.header, "header"), (.footer, "footer"), (.supplementary("badge"), "badge"),
    ])
    func cellKinds(kind: CellKind, name: String) throws {
        #expect(kind.name == name)
        let encoded = try JSONEncoder().encode([kind])
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"\(name)\"]")
        #expect(try JSONDecoder().decode([CellKind].self, from: encoded) == [kind])
        if kind != .item { #expect(CellKind(elementKind: name) == kind) }
    }

    @Test("an action's button reads as words", arguments: [
        ("append", "Append"), ("removeLast", "Remove last"), ("checkOffFirst", "Check off first"), ("setLayout", "Set layout"),
    ])
    func buttonTitles(name: String, title: String) {
        #expect(ActionDescriptor(name: name, description: "").buttonTitle == title)
    }

    @Test("an HTTP error's details become members of its JSON body; error and message cannot be overridden")
    func errorDetails() throws {
        let error = HTTPError(.unprocessableContent, code: "duplicate_items", message: "Duplicate: a",
                              details: ["index": 3, "error": 1, "message": 2])
        guard case .bytes(let bytes) = error.response.body else { Issue.record("no body"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"error":"duplicate_items","index":3,"message":"Duplicate: a"}"#)
    }
}
