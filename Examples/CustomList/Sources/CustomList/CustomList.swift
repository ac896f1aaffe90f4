import DiffableWeb

/// A shopping list: add an item, check off the first, sort by aisle. Every change animates.
struct Groceries: WebList {
    static let title = "Groceries"
    static let summary = "A shopping list that animates every change."
    static let cellTemplate = "cells/grocery"

    var aisles = ["Bread": 1, "Milk": 4, "Apples": 2, "Coffee": 3]

    enum Action: WebListAction {
        case add(item: String)
        case checkOffFirst
        case sortByAisle
    }

    struct Cell: Encodable { let name: String, aisle: Int }

    func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot(["list": ["Bread", "Milk", "Apples", "Coffee"]]) }

    func cell(for item: String) -> Cell? { aisles[item].map { Cell(name: item, aisle: $0) } }

    mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .add(let item):
            try list.appendItems([item])  // a duplicate is refused (422, naming it), and nothing changes
            aisles[item] = aisles[item] ?? Int.random(in: 1...9)
        case .checkOffFirst:
            if let first = list.itemIdentifiers.first { try list.deleteItems([first]) }
        case .sortByAisle:
            try list.sortItems { (aisles[$0] ?? 0, $0) < (aisles[$1] ?? 0, $1) }
        }
    }

    func status(of list: Snapshot<String, String>) -> String { "\(list.numberOfItems) to buy" }
}

@main
enum CustomList {
    static func main() async throws {
        try await WebApp.serve(lists: [Groceries.self], port: CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8081)
    }
}
