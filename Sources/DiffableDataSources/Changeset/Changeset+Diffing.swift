import OrderedCollections
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Changeset {
    /// Computes the changes that turn `old` into `new`.
    ///
    /// One hash table over the old items (the least any hashing diff must build), one lookup
    /// per new item, then linear passes and a longest-increasing-subsequence per section to
    /// keep moves minimal. Reload and reconfigure marks are read from `new`.
    ///
    /// ```swift
    /// let changes = Changeset(from: dataSource.snapshot(), to: filtered)
    /// ```
    /// - Complexity: Expected O(n) time and memory for n items (O(n log n) in the worst case
    ///   of heavy reordering, from the subsequence search).
    @inlinable public init(from old: Snapshot<SectionID, ItemID>, to new: Snapshot<SectionID, ItemID>) {
        self.init()
        diffSections(old, new)
        diffItems(old, new)
    }

    @inlinable mutating func diffSections(_ old: Snapshot<SectionID, ItemID>, _ new: Snapshot<SectionID, ItemID>) {
        let oldIDs = old.sections.keys
        let newIDs = new.sections.keys
        var newIndexOfOld = [Int](repeating: -1, count: oldIDs.count)
        var survivors: [(newIndex: Int, oldIndex: Int)] = []
        for (newIndex, id) in newIDs.enumerated() {
            if let oldIndex = oldIDs.firstIndex(of: id) {
                newIndexOfOld[oldIndex] = newIndex
                survivors.append((newIndex, oldIndex))
            } else {
                sectionInsertions.append(SectionChange(id: id, index: newIndex))
            }
        }
        for (oldIndex, id) in oldIDs.enumerated() where newIndexOfOld[oldIndex] < 0 {
            sectionDeletions.append(SectionChange(id: id, index: oldIndex))
        }
        let inPlace = longestIncreasingSubsequence(survivors.map(\.oldIndex))
        for (k, survivor) in survivors.enumerated() where !inPlace[k] {
            sectionMoves.append(SectionMove(id: newIDs[survivor.newIndex], from: survivor.oldIndex, to: survivor.newIndex))
        }
        for id in new.reloadedSections {
            if let from = oldIDs.firstIndex(of: id), let to = newIDs.firstIndex(of: id) {
                sectionReloads.append(SectionMove(id: id, from: from, to: to))
            }
        }
    }

    @inlinable mutating func diffItems(_ old: Snapshot<SectionID, ItemID>, _ new: Snapshot<SectionID, ItemID>) {
        let oldCount = old.numberOfItems
        let newCount = new.numberOfItems

        // 1. Old items: flat index by identifier, and the section of each flat index.
        var oldFlatIndex = [ItemID: Int](minimumCapacity: oldCount)
        var oldSectionOfFlat = [Int32](repeating: 0, count: oldCount)
        var oldSectionStart = [Int](repeating: 0, count: old.sections.count + 1)
        var flat = 0
        for (sectionIndex, storage) in old.sections.values.enumerated() {
            oldSectionStart[sectionIndex] = flat
            for chunkID in storage.chunkIDs {
                for item in old.chunks[chunkID].items {
                    oldFlatIndex[item] = flat
                    oldSectionOfFlat[flat] = Int32(sectionIndex)
                    flat += 1
                }
            }
        }
        oldSectionStart[old.sections.count] = flat

        // The old index of each new section, or -1 when the section is new.
        let oldSectionOfNew: [Int] = new.sections.keys.map { old.sections.index(forKey: $0) ?? -1 }

        // 2. New items, section by section: insertions, cross-section moves, and the
        //    candidates for staying in place (same section identity), whose LIS stays put.
        var newFlatOfOld = [Int](repeating: -1, count: oldCount)
        var newSectionStart = [Int](repeating: 0, count: new.sections.count + 1)
        var candidateKeys: [Int] = []
        var candidatePositions: [Int] = []
        var candidateIDs: [ItemID] = []
        var newFlat = 0
        for (sectionIndex, storage) in new.sections.values.enumerated() {
            newSectionStart[sectionIndex] = newFlat
            let sameSection = Int32(truncatingIfNeeded: oldSectionOfNew[sectionIndex])
            let hasOldSelf = oldSectionOfNew[sectionIndex] >= 0
            candidateKeys.removeAll(keepingCapacity: true)
            candidatePositions.removeAll(keepingCapacity: true)
            candidateIDs.removeAll(keepingCapacity: true)
            let sectionMovesStart = itemMoves.count
            var candidatesSorted = true
            var lastCandidateKey = -1
            var position = 0
            for chunkID in storage.chunkIDs {
                for item in new.chunks[chunkID].items {
                    if let oldFlat = oldFlatIndex[item] {
                        newFlatOfOld[oldFlat] = newFlat
                        let oldSection = oldSectionOfFlat[oldFlat]
                        if hasOldSelf && oldSection == sameSection {
                            if oldFlat < lastCandidateKey { candidatesSorted = false }
                            lastCandidateKey = oldFlat
                            candidateKeys.append(oldFlat)
                            candidatePositions.append(position)
                            candidateIDs.append(item)
                        } else {
                            let oldSectionIndex = Int(oldSection)
                            itemMoves.append(ItemMove(
                                id: item,
                                from: IndexPath(item: oldFlat - oldSectionStart[oldSectionIndex], section: oldSectionIndex),
                                to: IndexPath(item: position, section: sectionIndex)))
                        }
                    } else {
                        itemInsertions.append(ItemChange(id: item, indexPath: IndexPath(item: position, section: sectionIndex)))
                    }
                    position += 1
                    newFlat += 1
                }
            }
            let crossSectionMovesEnd = itemMoves.count
            if !candidatesSorted {  // sorted candidates are all in place: no subsequence to find
                let inPlace = longestIncreasingSubsequence(candidateKeys)
                let oldSectionIndex = Int(sameSection)
                for k in 0..<candidateKeys.count where !inPlace[k] {
                    itemMoves.append(ItemMove(
                        id: candidateIDs[k],
                        from: IndexPath(item: candidateKeys[k] - oldSectionStart[oldSectionIndex], section: oldSectionIndex),
                        to: IndexPath(item: candidatePositions[k], section: sectionIndex)))
                }
            }
            if crossSectionMovesEnd > sectionMovesStart && itemMoves.count > crossSectionMovesEnd {
                // Both kinds of move landed in this section: restore ascending destination order.
                itemMoves[sectionMovesStart...].sort { $0.to.item < $1.to.item }
            }
        }
        newSectionStart[new.sections.count] = newFlat

        // 3. Deletions: old items that no new item claimed, in old order.
        let survivors = newCount - itemInsertions.count
        if survivors < oldCount {
            flat = 0
            for (sectionIndex, storage) in old.sections.values.enumerated() {
                var position = 0
                for chunkID in storage.chunkIDs {
                    for item in old.chunks[chunkID].items {
                        if newFlatOfOld[flat] < 0 {
                            itemDeletions.append(ItemChange(id: item, indexPath: IndexPath(item: position, section: sectionIndex)))
                        }
                        position += 1
                        flat += 1
                    }
                }
            }
        }

        // 4. Reloads and reconfigures of surviving items.
        func update(_ id: ItemID) -> ItemMove? {
            guard let oldFlat = oldFlatIndex[id], case let target = newFlatOfOld[oldFlat], target >= 0 else { return nil }
            let oldSection = Int(oldSectionOfFlat[oldFlat])
            let newSection = Self.section(containing: target, starts: newSectionStart)
            return ItemMove(id: id,
                            from: IndexPath(item: oldFlat - oldSectionStart[oldSection], section: oldSection),
                            to: IndexPath(item: target - newSectionStart[newSection], section: newSection))
        }
        itemReloads = new.reloadedItems.compactMap(update)
        itemReconfigures = new.reconfiguredItems.compactMap(update)
    }

    /// The section whose flat range contains `flat` (binary search over section starts).
    @inlinable static func section(containing flat: Int, starts: [Int]) -> Int {
        var low = 0, high = starts.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= flat { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
