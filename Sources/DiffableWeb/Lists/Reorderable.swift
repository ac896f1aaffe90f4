import DiffableDataSources
import Foundation

/// A list whose items people reorder by hand (UIKit's `reorderingHandlers`): its page shows an
/// Edit button, drag handles and Alt+↑/↓, and the framework's `reorder` action (item, and a
/// position or a direction) moves the item through the data source's reordering, answering
/// with the transaction's difference.
public protocol Reorderable: WebList {
    /// `canReorderItem`: whether a person may move `item` (a script's `reorder` of it is then
    /// refused, 422 `reordering_not_allowed`). Default: every item.
    func canReorder(_ item: ItemID) -> Bool

    /// `didReorder`: a person moved `item` from one place to another. Default: nothing.
    mutating func didReorder(_ item: ItemID, from source: IndexPath, to destination: IndexPath)
}

extension Reorderable {
    public func canReorder(_ item: ItemID) -> Bool { true }
    public mutating func didReorder(_ item: ItemID, from source: IndexPath, to destination: IndexPath) {}
}

/// The framework's `reorder` action, as the API and the page describe it.
enum ReorderAction {
    static let name = "reorder"

    static var descriptor: ActionDescriptor {
        ActionDescriptor(
            name: name,
            description: "A person's reorder (a drag, Alt+↑/↓, a row's ↑/↓ button): through the data source's reordering handlers; answers with the transaction's difference",
            parameters: [
                .init(name: "item", type: "string", required: true, description: "The item to move"),
                .init(name: "to", type: "integer", required: false, description: "Its position after the move (0-based)", position: true),
                .init(name: "direction", type: "string", required: false, description: "up or down: one place (instead of to)", choices: ["up", "down"]),
            ])
    }

    /// What a reorder's answer carries: where the item went, and the transaction's difference.
    struct Report: Encodable {
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

    /// The index path that puts `item` (at position `from`) at position `to` of the whole list:
    /// after the row now there when it moves down, before it when it moves up, in that row's
    /// section (so a row dragged onto another section's row joins that section).
    static func destination(of item: String, at from: Int, to: Int, in snapshot: Snapshot<String, String>) -> IndexPath {
        let items = snapshot.itemIdentifiers
        let target = items[to]
        guard let section = snapshot.sectionIdentifier(containingItem: target),
              let sectionIndex = snapshot.indexOfSection(section),
              var index = try? snapshot.itemIdentifiers(inSection: section).firstIndex(of: target) else {
            return IndexPath(item: to, section: 0)
        }
        // In the snapshot without the moved item, the target moves up one if they share a section
        // and the moved item was before it.
        if snapshot.sectionIdentifier(containingItem: item) == section, from < to { index -= 1 }
        return IndexPath(item: from < to ? index + 1 : index, section: sectionIndex)
    }

    /// Runs a person's reorder as UIKit does (`canReorderItem`, then the apply of the
    /// transaction's final snapshot), on `list`, the write's transaction.
    /// - Returns: the report, and where the item went (`nil`: it stayed).
    static func run(_ parameters: ActionParameters, on list: ListTransaction, canReorder: @escaping @Sendable (String) -> Bool)
        throws(ActionError) -> (report: ActionReport, moved: (from: Int, to: Int)?) {
        let item = try parameters.requiredString("item")
        let items = list.snapshot().itemIdentifiers
        guard let from = items.firstIndex(of: item) else { throw .snapshot(.unknownItems([item])) }
        let to: Int
        if let direction = parameters.string("direction") {
            guard direction == "up" || direction == "down" else { throw .invalidParameter("direction", "must be up or down") }
            to = max(0, min(items.count - 1, from + (direction == "up" ? -1 : 1)))
        } else {
            to = try parameters.int("to", in: 0...max(0, items.count - 1))
        }
        let pinned = ActionError.unprocessable(code: "reordering_not_allowed", message: "\(item) cannot be reordered")
        guard to != from else {
            guard canReorder(item) else { throw pinned }
            return (ActionReport(encoding: Report(item: item, position: from, count: items.count, transaction: nil)), nil)
        }
        var handlers = ReorderingHandlers<String, String>()
        handlers.canReorderItem = canReorder
        list.reorderingHandlers = handlers
        let transaction: DataSourceTransaction<String, String>
        do {
            transaction = try list.reorderItem(item, to: destination(of: item, at: from, to: to, in: list.snapshot()))
        } catch .reorderingNotAllowed {
            throw pinned
        } catch {
            throw .unprocessable(code: "invalid_reorder", message: "\(error)")
        }
        let difference = Report.Difference(
            removals: transaction.difference.removals.compactMap { change in
                guard case .remove(let offset, let element, let other) = change else { return nil }
                return Report.Change(offset: offset, element: element, associatedWith: other)
            },
            insertions: transaction.difference.insertions.compactMap { change in
                guard case .insert(let offset, let element, let other) = change else { return nil }
                return Report.Change(offset: offset, element: element, associatedWith: other)
            })
        let report = Report(item: item, position: to, count: items.count,
                            transaction: .init(difference: difference, sections: transaction.sectionTransactions.map(\.sectionIdentifier)))
        return (ActionReport(encoding: report), (from, to))
    }
}
