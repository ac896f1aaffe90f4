import DiffableDataSources
import Foundation

// A ``Reorderable`` list's `reorder` action: the framework's, run through the data source's
// reordering handlers, with the list's `canReorder` and `didReorder`.
extension WebListDemo {
    func reorder(_ parameters: ActionParameters, on list: ListTransaction) throws(ActionError) -> ActionReport? {
        guard let reorderable = current as? any Reorderable else { throw .unknownAction(ReorderAction.name) }
        return try Self.reorder(reorderable, parameters, on: list, demo: self)
    }

    private static func reorder<Ordered: Reorderable>(_ list: Ordered, _ parameters: ActionParameters, on transaction: ListTransaction,
                                                       demo: WebListDemo) throws(ActionError) -> ActionReport? {
        let canReorder: @Sendable (String) -> Bool = { item in Ordered.ItemID(item).map(list.canReorder) ?? false }
        let (report, moved) = try ReorderAction.run(parameters, on: transaction, canReorder: canReorder)
        if let moved, let item = try? parameters.requiredString("item"), let id = Ordered.ItemID(item) {
            var changed = list
            changed.didReorder(id, from: IndexPath(item: moved.from, section: 0), to: IndexPath(item: moved.to, section: 0))
            if let changed = changed as? List { demo.update(changed) }
        }
        return report
    }
}
