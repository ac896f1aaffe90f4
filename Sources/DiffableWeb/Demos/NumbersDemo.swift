import CompositionalLayout
import DiffableDataSources
import Foundation
import Synchronization

/// The numbered list of the ReactorKit post (../shared/SEEDS.md, 004): Append, Remove last
/// and Remove center change the state, and every change hands the whole array to the data
/// source (`deleteAllItems`, `appendSections`, `appendItems`), which animates the difference.
public final class NumbersDemo: Demo {
    public static let section = "numbers"
    public static let maximumCount = 100_000

    public static var descriptor: DemoDescriptor {
        DemoDescriptor(
            name: "numbers", title: "Numbers",
            summary: "Append, remove the last or the center item of a numbered list; every change animates.",
            pageTemplate: "demos/numbers",
            actions: [
                ActionDescriptor(name: "append", description: "Append numbered items at the end",
                                 parameters: [.init(name: "count", type: "integer", required: false, description: "How many (1…10000, default 1)")]),
                ActionDescriptor(name: "removeLast", description: "Remove the last item"),
                ActionDescriptor(name: "removeCenter", description: "Remove the item in the middle"),
                ActionDescriptor(name: "move", description: "Move the item at one position to another (reordering)",
                                 parameters: [.init(name: "from", type: "integer", required: true, description: "Current position (0-based)"),
                                              .init(name: "to", type: "integer", required: true, description: "New position (0-based)")]),
            ],
            make: { NumbersDemo() })
    }

    struct State {
        var numbers: [Int] = [1, 2, 3, 4, 5]
        var next = 6
    }

    let state = Mutex(State())

    public init() {}

    public func initialSnapshot() -> Snapshot<String, String> { snapshot(of: state.withLock { $0.numbers }) }

    func snapshot(of numbers: [Int]) -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        snapshot.deleteAllItems()
        try? snapshot.appendSections([Self.section])
        try? snapshot.appendItems(numbers.map { "n\($0)" })  // numbers are unique by construction
        return snapshot
    }

    /// A plain list with a section header, as a UITableView with a header view.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            var configuration = ListConfiguration(appearance: .plain)
            configuration.headerMode = .supplementary
            return LayoutSection.list(using: configuration, layoutEnvironment: environment)
        }
    }

    public func cell(for item: String) -> CellContent? {
        guard item.hasPrefix("n"), let number = Int(item.dropFirst()) else { return nil }
        return CellContent(template: "cells/number", values: ["number": number.grouped, "label": "Item \(number.grouped)"])
    }

    public func supplementary(kind: String, section: String, in snapshot: Snapshot<String, String>) -> CellContent? {
        guard kind == "header" else { return nil }
        let count = snapshot.numberOfItems
        return CellContent(template: "cells/header", values: ["title": "Numbers", "detail": "\(count.grouped) items"])
    }

    public func perform(_ action: String, parameters: ActionParameters, on dataSource: DiffableDataSource<String, String>) throws(ActionError) {
        // The state change and the apply happen under one lock, so concurrent actions apply
        // in the order their state changes happened.
        try state.withLock { state throws(ActionError) in
            switch action {
            case "append":
                let count = try parameters.int("count", default: 1, in: 1...10_000)
                guard state.numbers.count + count <= Self.maximumCount else {
                    throw .invalidParameter("count", "the list holds at most \(Self.maximumCount.grouped) items")
                }
                state.numbers.append(contentsOf: state.next..<(state.next + count))
                state.next += count
            case "removeLast":
                if !state.numbers.isEmpty { state.numbers.removeLast() }
            case "removeCenter":
                if !state.numbers.isEmpty { state.numbers.remove(at: state.numbers.count / 2) }
            case "move":
                let last = max(state.numbers.count - 1, 0)
                let from = try parameters.int("from", in: 0...last)
                let to = try parameters.int("to", in: 0...last)
                guard !state.numbers.isEmpty else { throw .invalidParameter("from", "the list is empty") }
                state.numbers.insert(state.numbers.remove(at: from), at: to)
            default:
                throw .unknownAction(action)
            }
            dataSource.apply(snapshot(of: state.numbers), animatingDifferences: true)
        }
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        let count = snapshot.numberOfItems
        return count == 1 ? "1 item" : "\(count.grouped) items"
    }

    public func pageValues() -> [String: String] { [:] }
}
