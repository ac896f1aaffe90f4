import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

/// The numbered list of the ReactorKit post (../shared/SEEDS.md, 004): Append, Remove last
/// and Remove center change the state, and every change hands the whole array to the data
/// source (`deleteAllItems`, `appendSections`, `appendItems`), which animates the difference.
public final class NumbersDemo: Demo {
    public static let section = "numbers"
    /// The numbers an item may carry: `n1` … `n9007199254740991` (2⁵³ − 1, exact in every JSON
    /// reader). Only the canonical spelling names an item: `n007`, `n+7` and `n-3` do not.
    public static let numberRange = 1...9_007_199_254_740_991

    /// The number of a canonical item identifier (`n` and a decimal number in ``numberRange``
    /// without leading zeros or a sign), or `nil`.
    public static func number(of item: String) -> Int? {
        let digits = item.utf8.dropFirst()
        guard item.utf8.first == UInt8(ascii: "n"), let first = digits.first, first != UInt8(ascii: "0"),
              digits.count <= 16, digits.allSatisfy({ (48...57).contains($0) }),
              let number = Int(item.dropFirst()), numberRange.contains(number) else { return nil }
        return number
    }

    public static var descriptor: DemoDescriptor {
        DemoDescriptor(
            name: "numbers", title: "Numbers",
            summary: "Append, remove the last or the center item of a numbered list; every change animates.",
            cellTemplates: ["cells/number", "cells/header"],
            actions: [
                ActionDescriptor(name: "append", description: "Append numbered items at the end",
                                 parameters: [.init(name: "count", type: "integer", required: false, description: "How many (1…10000, default 1)")]),
                ActionDescriptor(name: "removeLast", description: "Remove the last item"),
                ActionDescriptor(name: "removeCenter", description: "Remove the item in the middle"),
                ActionDescriptor(name: "move", description: "Move the item at one position to another (reordering)",
                                 parameters: [.init(name: "from", type: "integer", required: true, description: "Current position (0-based)", position: true),
                                              .init(name: "to", type: "integer", required: true, description: "New position (0-based)", position: true)]),
                ActionDescriptor(name: "reorder", description: "A person's reorder (a drag, Alt+↑/↓, a row's ↑/↓ button): through the data source's reordering handlers; answers with the transaction's difference",
                                 parameters: [.init(name: "item", type: "string", required: true, description: "The item (n…); multiples of 10 are pinned and refused"),
                                              .init(name: "to", type: "integer", required: false, description: "Its position after the move (0-based)", position: true),
                                              .init(name: "direction", type: "string", required: false, description: "up or down: one place (instead of to)", choices: ["up", "down"])]),
            ],
            example: ExampleRequest(action: "append", body: #"{"count":3}"#),
            reorderable: true,
            make: { NumbersDemo() })
    }

    /// The next number to append (numbers are never reused, so identifiers stay unique).
    let nextNumber = Mutex(6)

    public init() {}

    public func initialSnapshot() -> Snapshot<String, String> { snapshot(of: Array(1...5)) }

    func snapshot(of numbers: [Int]) -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
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
        guard let number = Self.number(of: item) else { return nil }
        var values = ["id": item, "number": number.grouped, "label": "Item \(number.grouped)"]
        if Self.isPinned(item) { values["pinned"] = "true" }
        return CellContent(template: "cells/number", values: values)
    }

    /// What a script sees of an item: its number and label, and whether it is pinned.
    public func data(for item: String) -> [String: String]? {
        guard let number = Self.number(of: item) else { return nil }
        var data = ["number": number.grouped, "label": "Item \(number.grouped)"]
        if Self.isPinned(item) { data["pinned"] = "true" }
        return data
    }

    /// `canReorderItem`: every tenth number is pinned in place (a person cannot drag it, and a
    /// script's `reorder` of it is refused); `move` and snapshot operations still move it.
    static func isPinned(_ item: String) -> Bool { number(of: item).map { $0 % 10 == 0 } ?? false }

    /// The reorders done through the handlers (the page status and the API report them).
    let reorders = Mutex(0)

    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? {
        guard kind == .header else { return nil }
        let count = snapshot.numberOfItems
        return CellContent(template: "cells/header", values: ["title": "Numbers", "detail": "\(count.grouped) items"])
    }

    /// The actions work on the current snapshot — the single source of truth, which a script
    /// may have changed with snapshot operations — reading and applying it atomically.
    public func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        _ = try performReporting(action, parameters: parameters, on: dataSource)
    }

    public func performReporting(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) -> ActionReport? {
        if action == "reorder" { return try reorder(parameters, on: dataSource) }
        try dataSource.update(animatingDifferences: true) { snapshot throws(ActionError) in
            let items = snapshot.itemIdentifiers
            /// Snapshot rules broken here become 422s naming the rule.
            func attempt(_ change: () throws(SnapshotError) -> Void) throws(ActionError) {
                do { try change() } catch { throw .snapshot(error) }
            }
            switch action {
            case "append":
                // A list that would pass 100,000 items is refused where every write is (422
                // list_too_large): the numbers reserved here are given back then.
                let count = try parameters.int("count", default: 1, in: 1...10_000)
                // Checked arithmetic: a script may have put the largest number in the list.
                let highest = items.lazy.compactMap(Self.number(of:)).max() ?? 0
                let reserved = nextNumber.withLock { next -> Int? in
                    let first = max(next, highest + 1)  // highest ≤ numberRange.upperBound < Int.max
                    let (end, overflow) = first.addingReportingOverflow(count)
                    guard !overflow, end - 1 <= Self.numberRange.upperBound else { return nil }
                    next = end
                    return first
                }
                guard let first = reserved else {
                    throw .invalidParameter("count", "the numbers would pass \(Self.numberRange.upperBound.grouped), the largest an item may carry")
                }
                try attempt { () throws(SnapshotError) in
                    if snapshot.numberOfSections == 0 { try snapshot.appendSections([Self.section]) }
                    try snapshot.appendItems((first..<(first + count)).map { "n\($0)" })
                }
            case "removeLast":
                if let last = items.last { try attempt { () throws(SnapshotError) in try snapshot.deleteItems([last]) } }
            case "removeCenter":
                if !items.isEmpty { try attempt { () throws(SnapshotError) in try snapshot.deleteItems([items[items.count / 2]]) } }
            case "move":
                guard !items.isEmpty else { throw .invalidParameter("from", "the list is empty") }
                let from = try parameters.int("from", in: 0...(items.count - 1))
                let to = try parameters.int("to", in: 0...(items.count - 1))
                guard from != to else { return }
                // Moving down lands after the item now at `to`; moving up, before it.
                try attempt { () throws(SnapshotError) in
                    if from < to { try snapshot.moveItem(items[from], afterItem: items[to]) }
                    else { try snapshot.moveItem(items[from], beforeItem: items[to]) }
                }
            default:
                throw .unknownAction(action)
            }
        }
        return nil
    }

    /// What a reorder's answer carries: where the item went, and the transaction's difference.
    struct ReorderReport: Encodable {
        struct Change: Encodable {
            var offset: Int
            var element: String
            var associatedWith: Int?
        }
        struct Difference: Encodable {
            var removals: [Change]
            var insertions: [Change]
        }
        struct Transaction: Encodable {
            var difference: Difference
            var sections: [String]
        }
        var item: String
        var position: Int
        var count: Int
        var transaction: Transaction?
    }

    /// A person's reorder, as UIKit runs one: `canReorderItem`, then `willReorder` and
    /// `didReorder` around the apply of the transaction's final snapshot.
    func reorder(_ parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) -> ActionReport {
        let item = try parameters.requiredString("item")
        let items = dataSource.snapshot().itemIdentifiers
        guard let from = items.firstIndex(of: item) else {
            throw .snapshot(.unknownItems([item]))
        }
        let to: Int
        if let direction = parameters.string("direction") {
            guard direction == "up" || direction == "down" else { throw .invalidParameter("direction", "must be up or down") }
            to = max(0, min(items.count - 1, from + (direction == "up" ? -1 : 1)))
        } else {
            to = try parameters.int("to", in: 0...max(0, items.count - 1))
        }
        if dataSource.reorderingHandlers.canReorderItem == nil {
            var handlers = ReorderingHandlers<String, String>()
            handlers.canReorderItem = { !Self.isPinned($0) }
            // Counted before the apply (willReorder), so the changeset's status already says so.
            handlers.willReorder = { [weak self] _ in self?.reorders.withLock { $0 += 1 } }
            dataSource.reorderingHandlers = handlers
        }
        guard to != from else {
            guard !Self.isPinned(item) else { throw .unprocessable(code: "reordering_not_allowed", message: "\(item) is pinned: it cannot be reordered") }
            return ActionReport(encoding: ReorderReport(item: item, position: from, count: items.count, transaction: nil))
        }
        let transaction: DataSourceTransaction<String, String>
        do {
            transaction = try dataSource.reorderItem(item, to: IndexPath(item: to, section: 0))
        } catch .reorderingNotAllowed {
            throw .unprocessable(code: "reordering_not_allowed", message: "\(item) is pinned: it cannot be reordered")
        } catch {
            throw .unprocessable(code: "invalid_reorder", message: "\(error)")
        }
        let difference = ReorderReport.Difference(
            removals: transaction.difference.removals.map { change in
                guard case .remove(let offset, let element, let other) = change else { return nil }
                return ReorderReport.Change(offset: offset, element: element, associatedWith: other)
            }.compactMap { $0 },
            insertions: transaction.difference.insertions.map { change in
                guard case .insert(let offset, let element, let other) = change else { return nil }
                return ReorderReport.Change(offset: offset, element: element, associatedWith: other)
            }.compactMap { $0 })
        return ActionReport(encoding: ReorderReport(
            item: item, position: to, count: items.count,
            transaction: .init(difference: difference, sections: transaction.sectionTransactions.map(\.sectionIdentifier))))
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        let count = snapshot.numberOfItems
        return count == 1 ? "1 item" : "\(count.grouped) items"
    }

    /// The reorders people made by hand (`didReorder`), for scripts.
    public func details(of snapshot: Snapshot<String, String>) -> String {
        "\(reorders.withLock { $0 }) reordered by hand"
    }

    public func pageValues() -> [String: String] { [:] }

    public func persistentState() -> [String: String] {
        ["next": String(nextNumber.withLock { $0 }), "reorders": String(reorders.withLock { $0 })]
    }

    public func restore(state: [String: String]) {
        if let next = state["next"].flatMap(Int.init), Self.numberRange.contains(next) { nextNumber.withLock { $0 = next } }
        if let count = state["reorders"].flatMap(Int.init), count >= 0 { reorders.withLock { $0 = count } }
    }
}
