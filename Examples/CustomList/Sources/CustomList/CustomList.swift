import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

/// A shopping list: add an item, check off the first, sort by aisle. Every change animates.
final class GroceriesDemo: Demo {
    static let descriptor = DemoDescriptor(
        name: "groceries", title: "Groceries", summary: "A shopping list that animates every change.",
        cellTemplates: ["cells/grocery"],
        actions: [
            ActionDescriptor(name: "add", description: "Add an item at the end",
                             parameters: [.init(name: "item", type: "string", required: true, description: "What to buy")]),
            ActionDescriptor(name: "checkOffFirst", description: "Remove the first item"),
            ActionDescriptor(name: "sortByAisle", description: "Order the list by aisle"),
        ],
        example: ExampleRequest(action: "add", body: #"{"item":"Lemons"}"#),
        make: { GroceriesDemo() })

    let aisles = Mutex(["Bread": 1, "Milk": 4, "Apples": 2, "Coffee": 3])

    func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(["list"])  // constant identifiers: cannot fail
        try? snapshot.appendItems(["Bread", "Milk", "Apples", "Coffee"])
        return snapshot
    }

    func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .insetGrouped), layoutEnvironment: environment)
        }
    }

    func cell(for item: String) -> CellContent? {
        aisles.withLock { $0[item] }.map { CellContent(template: "cells/grocery", values: ["name": item, "aisle": String($0)]) }
    }

    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    func perform(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) {
        var snapshot = list.snapshot()
        switch action {
        case "add":
            let item = try parameters.requiredString("item").trimmingCharacters(in: .whitespaces)
            guard (1...60).contains(item.count) else { throw .invalidParameter("item", "must be 1 to 60 characters") }
            do { try snapshot.appendItems([item]) } catch { throw .snapshot(error) }  // a duplicate names itself
            aisles.withLock { $0[item] = $0[item] ?? Int.random(in: 1...9) }
        case "checkOffFirst":
            guard let first = snapshot.itemIdentifiers.first else { return }
            try? snapshot.deleteItems([first])  // it is in the snapshot: cannot fail
        case "sortByAisle":
            let sorted = aisles.withLock { aisles in snapshot.itemIdentifiers.sorted { (aisles[$0] ?? 0, $0) < (aisles[$1] ?? 0, $1) } }
            snapshot.deleteAllItems()
            try? snapshot.appendSections(["list"])
            try? snapshot.appendItems(sorted)  // the same unique identifiers, reordered
        default:
            throw .unknownAction(action)
        }
        list.apply(snapshot, animatingDifferences: true)
    }

    func status(of snapshot: Snapshot<String, String>) -> String { "\(snapshot.numberOfItems) to buy" }
    func pageValues() -> [String: String] { [:] }
}

@main
enum CustomList {
    static func main() async throws {
        var configuration = WebConfiguration(publicDirectory: "../../Public", templatesDirectory: "../../templates",
                                             demos: [GroceriesDemo.descriptor])
        configuration.extraTemplatesDirectories = ["templates"]
        let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8081
        try await WebApp.serve(configuration, port: port)
    }
}
