import OrderedCollections
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Snapshot {
    /// Performs a changeset on this snapshot the way a batch update does, and returns the result.
    ///
    /// Deletions and the sources of moves are removed first (at their old positions); then
    /// sections are inserted at their new indices in ascending order, then items at their new
    /// index paths in ascending order. For `changes = Changeset(from: old, to: new)`,
    /// `old.applying(changes) == new` always holds. A client that mirrors a list can use
    /// this to follow a stream of changesets.
    ///
    /// - Throws: ``SnapshotError/indexOutOfRange(_:)`` when a position does not exist or
    ///   names another identifier, and ``SnapshotError/duplicateItems(_:)`` or
    ///   ``SnapshotError/duplicateSections(_:)`` when the result would repeat an identifier.
    /// - Complexity: O(n + c log c) for n items and c changes.
    @inlinable public func applying(_ changes: Changeset<SectionID, ItemID>) throws(SnapshotError) -> Snapshot {
        let oldSections = sectionIdentifiers
        var itemsOfSection: [SectionID: [ItemID]] = [:]
        for (id, storage) in sections { itemsOfSection[id] = items(of: storage) }

        // 1. Remove deleted and moved-away items, by old index path.
        var removals: [Int: [(item: Int, id: ItemID)]] = [:]
        for change in changes.itemDeletions { removals[change.indexPath.section, default: []].append((change.indexPath.item, change.id)) }
        for move in changes.itemMoves { removals[move.from.section, default: []].append((move.from.item, move.id)) }
        for (sectionIndex, doomed) in removals {
            guard sectionIndex >= 0, sectionIndex < oldSections.count,
                  var items = itemsOfSection[oldSections[sectionIndex]] else {
                throw .indexOutOfRange("section \(sectionIndex) of \(oldSections.count)")
            }
            var remove = [Bool](repeating: false, count: items.count)
            for (index, id) in doomed {
                guard index >= 0, index < items.count, items[index] == id else {
                    throw .indexOutOfRange("item \(index) of section \(sectionIndex) is not \(id)")
                }
                remove[index] = true
            }
            var k = 0
            items.removeAll { _ in defer { k += 1 }; return remove[k] }
            itemsOfSection[oldSections[sectionIndex]] = items
        }

        // 2. Remove deleted and moved-away sections, by old index.
        var removeSection = [Bool](repeating: false, count: oldSections.count)
        for index in changes.sectionDeletions.map(\.index) + changes.sectionMoves.map(\.from) {
            guard index >= 0, index < oldSections.count else { throw .indexOutOfRange("section \(index) of \(oldSections.count)") }
            removeSection[index] = true
        }
        var sectionOrder = oldSections.enumerated().filter { !removeSection[$0.offset] }.map(\.element)
        for deletion in changes.sectionDeletions { itemsOfSection[deletion.id] = nil }

        // 3. Insert new and moved sections at their new indices, ascending.
        let placedSections = (changes.sectionInsertions.map { ($0.index, $0.id) } + changes.sectionMoves.map { ($0.to, $0.id) })
            .sorted { $0.0 < $1.0 }
        for (index, id) in placedSections {
            guard index >= 0, index <= sectionOrder.count else { throw .indexOutOfRange("section insertion at \(index)") }
            sectionOrder.insert(id, at: index)
            if itemsOfSection[id] == nil { itemsOfSection[id] = [] }
        }

        // 4. Insert new and moved items at their new index paths, ascending: one merge per section.
        var placedItems: [Int: [(index: Int, id: ItemID)]] = [:]
        for change in changes.itemInsertions { placedItems[change.indexPath.section, default: []].append((change.indexPath.item, change.id)) }
        for move in changes.itemMoves { placedItems[move.to.section, default: []].append((move.to.item, move.id)) }
        for (sectionIndex, placed) in placedItems {
            guard sectionIndex >= 0, sectionIndex < sectionOrder.count,
                  let remaining = itemsOfSection[sectionOrder[sectionIndex]]
            else { throw .indexOutOfRange("item insertion in section \(sectionIndex)") }
            let sorted = placed.sorted { $0.index < $1.index }
            var merged: [ItemID] = []
            merged.reserveCapacity(remaining.count + sorted.count)
            var next = 0, kept = remaining.startIndex
            while next < sorted.count || kept < remaining.endIndex {
                if next < sorted.count, sorted[next].index == merged.count {
                    merged.append(sorted[next].id)
                    next += 1
                } else if kept < remaining.endIndex {
                    merged.append(remaining[kept])
                    kept += 1
                } else {
                    throw .indexOutOfRange("item insertion at \(sorted[next].index) in section \(sectionIndex)")
                }
            }
            itemsOfSection[sectionOrder[sectionIndex]] = merged
        }

        var result = Snapshot()
        try result.appendSections(sectionOrder)
        for id in sectionOrder {
            try result.appendItems(itemsOfSection[id] ?? [], toSection: id)
        }
        return result
    }
}
