import OrderedCollections
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The changeset of a snapshot derived from the old one by a few item mutations, found from the
// items its journal names (see Snapshot+Journal.swift) instead of by a diff over every item.

extension Changeset {
    /// The item changes from `old` to `new` when `new` was derived from exactly `old` by item
    /// mutations that its journal names; `false` (nothing written) otherwise, or when so many
    /// items were touched that the diff is as cheap.
    ///
    /// Items the journal does not name kept their section and their order relative to each
    /// other, so they stay in place. A named survivor stays in place too when it is still between
    /// the same two unnamed items (in the same section) and in order with the other named
    /// survivors there (a longest increasing subsequence per such gap); every other named survivor
    /// moves. The result always turns `old` into `new`; for a single mutation it is the diff's
    /// own (the diff's longest increasing subsequence is unique then, but for an item moved one
    /// place down, where the diff moves its neighbour up instead; so does this).
    /// - Complexity: O(k log k + chunks) for k named items.
    @inlinable mutating func deriveItems(_ old: Snapshot<SectionID, ItemID>, _ new: Snapshot<SectionID, ItemID>) -> Bool {
        guard old.isJournalBase(of: new), old.sections.count == new.sections.count else { return false }
        let named = new.journal.touched
        let scale = Swift.max(old.numberOfItems, new.numberOfItems)
        guard named.count <= 16 || named.count &* 8 <= scale else { return false }

        var oldPositions = OldItemPositions(old)
        var newPositions = OldItemPositions(new)
        // Each named item once: where it was (flat, section) and where it is, -1 when absent.
        var entries: [JournalEntry<ItemID>] = []
        entries.reserveCapacity(named.count)
        var seen = Set<ItemID>(minimumCapacity: named.count)
        for id in named where seen.insert(id).inserted {
            let before = oldPositions.position(of: id)
            let after = newPositions.position(of: id)
            if before == nil && after == nil { continue }  // inserted, then removed
            entries.append(JournalEntry(id: id, oldFlat: before?.flat ?? -1, oldSection: before.map { Int($0.section) } ?? -1,
                                        newFlat: after?.flat ?? -1, newSection: after.map { Int($0.section) } ?? -1))
        }
        let oldStart = oldPositions.sectionStart, newStart = newPositions.sectionStart

        // Rank of each entry among the named items present in old (by old flat index), and in new:
        // flat - rank counts the unnamed items before it, the same in both for an item in its gap.
        var byOld = entries.indices.filter { entries[$0].oldFlat >= 0 }
        byOld.sort { entries[$0].oldFlat < entries[$1].oldFlat }
        var byNew = entries.indices.filter { entries[$0].newFlat >= 0 }
        byNew.sort { entries[$0].newFlat < entries[$1].newFlat }
        var gapOld = [Int](repeating: -1, count: entries.count)
        for (rank, e) in byOld.enumerated() { gapOld[e] = entries[e].oldFlat - rank }

        // Deletions, by old index path.
        for e in byOld where entries[e].newFlat < 0 {
            let entry = entries[e]
            itemDeletions.append(ItemChange(id: entry.id, indexPath: IndexPath(item: entry.oldFlat - oldStart[entry.oldSection], section: entry.oldSection)))
        }
        // Insertions and moves, by new index path. Survivors in the same section and gap are
        // grouped (consecutive in new order) and keep their longest run in old order in place.
        var stays = [Bool](repeating: false, count: entries.count)
        var k = 0
        while k < byNew.count {
            let e = byNew[k]
            let entry = entries[e]
            let gap = entry.newFlat - k
            guard entry.oldFlat >= 0, entry.oldSection == entry.newSection, gapOld[e] == gap else { k += 1; continue }
            var group = [e]
            var next = k + 1
            while next < byNew.count {
                let other = entries[byNew[next]]
                guard other.newFlat - next == gap, other.newSection == entry.newSection else { break }
                if other.oldFlat >= 0, other.oldSection == other.newSection, gapOld[byNew[next]] == gap { group.append(byNew[next]) }
                next += 1
            }
            let inPlace = longestIncreasingSubsequence(group.map { entries[$0].oldFlat })
            for (member, stay) in zip(group, inPlace) where stay { stays[member] = true }
            k = next
        }
        for e in byNew {
            let entry = entries[e]
            let to = IndexPath(item: entry.newFlat - newStart[entry.newSection], section: entry.newSection)
            if entry.oldFlat < 0 {
                itemInsertions.append(ItemChange(id: entry.id, indexPath: to))
            } else if !stays[e] {
                itemMoves.append(ItemMove(id: entry.id, from: IndexPath(item: entry.oldFlat - oldStart[entry.oldSection], section: entry.oldSection), to: to))
            }
        }
        swapSingleMoveDown(new)

        // Reloads and reconfigures of surviving items, in mark order, as the diff reports them.
        for (marked, reconfigure) in [(new.reloadedItems, false), (new.reconfiguredItems, true)] where !marked.isEmpty {
            var updates: [ItemMove] = []
            for id in marked {
                guard let (oldFlat, oldSection) = oldPositions.position(of: id),
                      let (newFlat, newSection) = newPositions.position(of: id) else { continue }
                updates.append(ItemMove(id: id,
                                        from: IndexPath(item: oldFlat - oldStart[Int(oldSection)], section: Int(oldSection)),
                                        to: IndexPath(item: newFlat - newStart[Int(newSection)], section: Int(newSection))))
            }
            if reconfigure { itemReconfigures = updates } else { itemReloads = updates }
        }
        return true
    }

    /// Where a section's only change is one item moved one place down (`[a, b] → [b, a]`), the
    /// diff keeps the moved item in place and moves its neighbour up; report the same.
    @inlinable mutating func swapSingleMoveDown(_ new: Snapshot<SectionID, ItemID>) {
        guard !itemMoves.isEmpty else { return }
        var movesInto: [Int: Int] = [:], touchedSections: [Int: Int] = [:]  // section -> count
        for move in itemMoves {
            movesInto[move.to.section, default: 0] += 1
            if move.from.section != move.to.section { touchedSections[move.from.section, default: 0] += 1 }
        }
        for change in itemInsertions { touchedSections[change.indexPath.section, default: 0] += 1 }
        for change in itemDeletions { touchedSections[change.indexPath.section, default: 0] += 1 }
        for index in itemMoves.indices {
            let move = itemMoves[index]
            guard move.from.section == move.to.section, move.to.item == move.from.item + 1,
                  movesInto[move.to.section] == 1, touchedSections[move.to.section] == nil,
                  let neighbour = new.itemIdentifier(at: IndexPath(item: move.from.item, section: move.to.section))
            else { continue }
            itemMoves[index] = ItemMove(id: neighbour, from: move.to, to: move.from)
        }
    }
}

/// One item named by a journal: where it was and where it is (flat index and section index),
/// -1 when absent.
@usableFromInline
struct JournalEntry<ItemID> {
    @usableFromInline var id: ItemID
    @usableFromInline var oldFlat: Int
    @usableFromInline var oldSection: Int
    @usableFromInline var newFlat: Int
    @usableFromInline var newSection: Int
    @inlinable init(id: ItemID, oldFlat: Int, oldSection: Int, newFlat: Int, newSection: Int) {
        self.id = id; self.oldFlat = oldFlat; self.oldSection = oldSection; self.newFlat = newFlat; self.newSection = newSection
    }
}
