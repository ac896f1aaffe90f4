import CompositionalLayout
import DiffableWeb

/// The numbered list of the ReactorKit post (../shared/SEEDS.md, 004): Append, Remove last
/// and Remove center change the list, and every change animates. People reorder it by hand;
/// every tenth number is pinned in place. People select several numbers (a click toggles one,
/// Shift-click selects a range) and Delete selected removes them; in editing mode each row
/// has a delete circle (with a confirmation) and a multiselect circle.
public struct Numbers: BuiltInList, Reorderable, SupplementaryViews, SelectableList, AccessorizedList, DeletableList {
    public static let title = "Numbers"
    public static let summary = "Append, remove the last or the center item of a numbered list; every change animates."
    public static let cellTemplate = "cells/number"
    public static let cellTemplates = ["cells/number", "cells/header"]
    public static let section = "numbers"
    /// The numbers an item may carry: `n1` … `n9007199254740991` (2⁵³ − 1, exact in every JSON reader).
    public static let numberRange = 1...9_007_199_254_740_991

    /// The next number to append (numbers are never reused, so identifiers stay unique).
    var next = 6
    /// The reorders people made by hand (`didReorder`), for scripts.
    var reorders = 0

    public enum Action: WebListAction {
        case append(count: Int?)
        case removeLast
        case removeCenter
        case move(from: ItemPosition, to: ItemPosition)
        case deleteSelected

        public static let descriptions = [
            "append": "Append numbered items at the end", "append.count": "How many (1…10000, default 1)",
            "removeLast": "Remove the last item", "removeCenter": "Remove the item in the middle",
            "move": "Move the item at one position to another (reordering)",
            "move.from": "Current position (0-based)", "move.to": "New position (0-based)",
            "deleteSelected": "Delete the selected items",
        ]
    }

    public struct Cell: Encodable {
        let id: String
        let number: String
        let label: String
        let pinned: Bool?
    }

    public struct Header: TemplatedCell {
        public let template = "cells/header"
        let title: String
        let detail: String
    }

    public init() {}

    public func initialSnapshot() throws -> Snapshot<String, String> {
        try Snapshot([Self.section: (1...5).map { "n\($0)" }])
    }

    /// A plain list with a section header, as a UITableView with a header view.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            var configuration = ListConfiguration(appearance: .plain)
            configuration.headerMode = .supplementary
            return LayoutSection.list(using: configuration, layoutEnvironment: environment)
        }
    }

    public func cell(for item: String) -> Cell? {
        guard let number = Self.number(of: item) else { return nil }
        return Cell(id: item, number: number.grouped, label: "Item \(number.grouped)", pinned: Self.isPinned(number) ? true : nil)
    }

    public func supplementary(_ kind: CellKind, in section: String, of list: Snapshot<String, String>) -> Header? {
        kind == .header ? Header(title: "Numbers", detail: "\(list.numberOfItems.grouped) items") : nil
    }

    /// Multiple selection, as a mail list's: a click adds or removes a number, in editing mode too
    /// (where the multiselect circles show it).
    public var selectionSettings: SelectionSettings {
        SelectionSettings(allowsMultipleSelection: true, allowsMultipleSelectionDuringEditing: true)
    }

    /// In editing mode, each row's delete and multiselect circles (its drag handle and ↑/↓ are
    /// its template's, shown in editing mode too).
    public func accessories(for item: String) -> [CellAccessory] { [.delete(), .multiselect()] }

    /// Delete selected reads the selection; every other action is ``perform(_:on:)``'s.
    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>, selection: inout ItemSelection<String>) throws {
        guard case .deleteSelected = action else { return try perform(action, on: &list) }
        // The framework drops deleted items from the selection after the apply.
        try list.deleteItems(selection.selectedItems)
    }

    /// The actions work on the current snapshot, the single source of truth, which a script
    /// may have changed with snapshot operations.
    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        let items = list.itemIdentifiers
        switch action {
        case .append(let count):
            let count = count ?? 1
            guard (1...10_000).contains(count) else { throw ActionError.invalidParameter("count", "must be an integer in 1…10000") }
            // A script may have put the largest number in the list.
            let first = max(next, (items.lazy.compactMap(Self.number(of:)).max() ?? 0) + 1)
            guard first + count - 1 <= Self.numberRange.upperBound else {
                throw ActionError.invalidParameter("count", "the numbers would pass \(Self.numberRange.upperBound.grouped), the largest an item may carry")
            }
            next = first + count
            if list.numberOfSections == 0 { try list.appendSections([Self.section]) }
            try list.appendItems((first..<next).map { "n\($0)" })
        case .removeLast:
            if let last = items.last { try list.deleteItems([last]) }
        case .removeCenter:
            if !items.isEmpty { try list.deleteItems([items[items.count / 2]]) }
        case .move(let from, let to):
            guard !items.isEmpty else { throw ActionError.invalidParameter("from", "the list is empty") }
            for (name, position) in [("from", from), ("to", to)] where !items.indices.contains(position.index) {
                throw ActionError.invalidParameter(name, "must be an integer in 0…\(items.count - 1)")
            }
            // Moving down lands after the item now at `to`; moving up, before it.
            if from < to { try list.moveItem(items[from.index], afterItem: items[to.index]) }
            if from > to { try list.moveItem(items[from.index], beforeItem: items[to.index]) }
        case .deleteSelected:
            break  // run with the selection, above
        }
    }

    /// `canReorderItem`: every tenth number is pinned in place; `move` and snapshot operations still move it.
    public func canReorder(_ item: String) -> Bool { !(Self.number(of: item).map(Self.isPinned) ?? false) }

    public mutating func didReorder(_ item: String, from source: IndexPath, to destination: IndexPath) { reorders += 1 }

    public func status(of list: Snapshot<String, String>) -> String {
        list.numberOfItems == 1 ? "1 item" : "\(list.numberOfItems.grouped) items"
    }

    public func details(of list: Snapshot<String, String>) -> String { "\(reorders) reordered by hand" }

    static func isPinned(_ number: Int) -> Bool { number % 10 == 0 }

    /// The number of a canonical item identifier (`n` and a decimal number in ``numberRange``
    /// without leading zeros or a sign), or `nil`: `n007`, `n+7` and `n-3` name no item.
    public static func number(of item: String) -> Int? {
        let digits = item.utf8.dropFirst()
        guard item.utf8.first == UInt8(ascii: "n"), let first = digits.first, first != UInt8(ascii: "0"),
              digits.count <= 16, digits.allSatisfy({ (48...57).contains($0) }),
              let number = Int(item.dropFirst()), numberRange.contains(number) else { return nil }
        return number
    }
}
