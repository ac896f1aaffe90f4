#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DiffableDataSource {
    /// Performs a user's reorder: moves `item` so that it ends at `destination` (an index path
    /// in the final snapshot), asking `canReorderItem` first and calling `willReorder` and
    /// `didReorder` around the apply, as UIKit does after a drag.
    ///
    /// ```swift
    /// dataSource.reorderingHandlers.canReorderItem = { _ in true }
    /// try dataSource.reorderItem(id, to: IndexPath(item: 0, section: 0))
    /// ```
    /// - Throws: ``DataSourceError`` when reordering is not allowed, the item is unknown, or
    ///   the destination is outside the snapshot. Nothing changes then.
    @discardableResult
    public func reorderItem(_ item: ItemID, to destination: IndexPath) throws(DataSourceError) -> DataSourceTransaction<SectionID, ItemID> {
        try applyGate.withLock { _ throws(DataSourceError) -> DataSourceTransaction<SectionID, ItemID> in
            let (initial, handlers) = state.withLock { ($0.snapshot, $0.reorderingHandlers) }
            guard initial.contains(item: item) else { throw .snapshot(.unknownItems(of: [item])) }
            guard let canReorder = handlers.canReorderItem, canReorder(item) else {
                throw .reorderingNotAllowed(item: String(describing: item))
            }
            var final = initial
            do {
                try final.deleteItems([item])
                guard destination.count == 2, destination.section >= 0, destination.section < final.numberOfSections else {
                    throw DataSourceError.invalidDestination("\(destination)")
                }
                let section = final.sections.keys[destination.section]
                let count = try final.numberOfItems(inSection: section)
                guard destination.item >= 0, destination.item <= count else { throw DataSourceError.invalidDestination("\(destination)") }
                if destination.item == count {
                    try final.appendItems([item], toSection: section)
                } else if let anchor = final.itemIdentifier(at: IndexPath(item: destination.item, section: destination.section)) {
                    try final.insertItems([item], beforeItem: anchor)
                }
            } catch let error as DataSourceError {
                throw error
            } catch let error as SnapshotError {
                throw .snapshot(error)
            } catch {
                throw .invalidDestination("\(error)")
            }
            let transaction = makeTransaction(from: initial, to: final)
            handlers.willReorder?(transaction)
            commit(final, animating: false, kind: .reorder)
            handlers.didReorder?(transaction)
            return transaction
        }
    }

    func makeTransaction(from initial: Snapshot<SectionID, ItemID>, to final: Snapshot<SectionID, ItemID>) -> DataSourceTransaction<SectionID, ItemID> {
        var sectionTransactions: [SectionTransaction<SectionID, ItemID>] = []
        for section in final.sectionIdentifiers {
            let before = (try? initial.itemIdentifiers(inSection: section)) ?? []
            let after = (try? final.itemIdentifiers(inSection: section)) ?? []
            guard before != after else { continue }
            var initialOutline = SectionSnapshot<ItemID>(), finalOutline = SectionSnapshot<ItemID>()
            try? initialOutline.append(before)
            try? finalOutline.append(after)
            sectionTransactions.append(SectionTransaction(
                sectionIdentifier: section, initialSnapshot: initialOutline, finalSnapshot: finalOutline,
                difference: after.difference(from: before).inferringMoves()))
        }
        return DataSourceTransaction(
            initialSnapshot: initial, finalSnapshot: final,
            difference: final.itemIdentifiers.difference(from: initial.itemIdentifiers).inferringMoves(),
            sectionTransactions: sectionTransactions)
    }
}
