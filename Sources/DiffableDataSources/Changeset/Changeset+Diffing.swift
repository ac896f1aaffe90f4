import OrderedCollections
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Changeset {
    /// Computes the changes that turn `old` into `new`.
    ///
    /// One lookup per new item in the old snapshot's own index (no hash table is built: the
    /// snapshot keeps one), then linear passes and a longest-increasing-subsequence per section
    /// to keep moves minimal. Reload and reconfigure marks are read from `new`.
    ///
    /// ```swift
    /// let changes = Changeset(from: dataSource.snapshot(), to: filtered)
    /// ```
    /// When `new` was derived from `old` by a few item mutations (`old` taken from a data source,
    /// then items inserted, deleted or moved: an API's batch of operations), the changes are
    /// found from the items those mutations named (see Changeset+Journal.swift), with the same
    /// result for a single mutation and an equally valid one for several.
    /// - Complexity: Expected O(n) time and memory for n items (O(n log n) in the worst case
    ///   of heavy reordering, from the subsequence search); O(k log k) for a snapshot derived
    ///   from `old` by mutations naming k items.
    @inlinable public init(from old: Snapshot<SectionID, ItemID>, to new: Snapshot<SectionID, ItemID>) {
        self.init()
        diffSections(old, new)
        if !deriveItems(old, new) { diffItems(old, new) }
    }

    /// The full diff, never the journal (for tests that compare the two).
    @inlinable init(diffing old: Snapshot<SectionID, ItemID>, to new: Snapshot<SectionID, ItemID>) {
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

        // 1. Every new item's old position, in one tight pass: a probe of the old snapshot's
        //    own index with the tag the new snapshot keeps for the item, so the diff builds no
        //    hash table and hashes nothing. The rest works on integers.
        var oldPositions = OldItemPositions(old)
        let oldSectionStart = oldPositions.sectionStart
        let oldOfNew = [Int](unsafeUninitializedCapacity: newCount) { buffer, initialized in
            var flat = 0
            for storage in new.sections.values {
                for chunkID in storage.chunkIDs {
                    let chunk = new.chunks[chunkID]
                    chunk.items.withUnsafeBufferPointer { items in
                        chunk.tags.withUnsafeBufferPointer { tags in
                            for offset in 0..<Swift.min(items.count, tags.count) where flat < buffer.count {
                                buffer[flat] = oldPositions.packedPosition(of: items[offset], tag: tags[offset])
                                flat &+= 1
                            }
                        }
                    }
                }
            }
            initialized = flat
        }

        // The old index of each new section, or -1 when the section is new.
        let oldSectionOfNew: [Int] = new.sections.keys.map { old.sections.index(forKey: $0) ?? -1 }

        // 2. New items, section by section: insertions, cross-section moves, and the
        //    candidates for staying in place (same section identity), whose LIS stays put.
        var newFlatOfOld = [Int](repeating: -1, count: oldCount)
        var newSectionStart = [Int](repeating: 0, count: new.sections.count + 1)
        var newFlat = 0
        for (sectionIndex, storage) in new.sections.values.enumerated() {
            newSectionStart[sectionIndex] = newFlat
            let sectionStart = newFlat
            let sameSection = oldSectionOfNew[sectionIndex]
            let sectionMovesStart = itemMoves.count
            var candidatesSorted = true
            var lastCandidateKey = -1
            var position = 0
            for chunkID in storage.chunkIDs {
                let items = new.chunks[chunkID].items
                for offset in items.indices where newFlat < oldOfNew.count {
                    let packed = oldOfNew[newFlat]
                    if packed < 0 {
                        itemInsertions.append(ItemChange(id: items[offset], indexPath: IndexPath(item: position, section: sectionIndex)))
                    } else {
                        let oldFlat = OldItemPositions<SectionID, ItemID>.flat(ofPacked: packed)
                        let oldSection = OldItemPositions<SectionID, ItemID>.section(ofPacked: packed)
                        newFlatOfOld[oldFlat] = newFlat
                        if oldSection == sameSection {
                            if oldFlat < lastCandidateKey { candidatesSorted = false }
                            lastCandidateKey = oldFlat
                        } else {
                            itemMoves.append(ItemMove(
                                id: items[offset],
                                from: IndexPath(item: oldFlat - oldSectionStart[oldSection], section: oldSection),
                                to: IndexPath(item: position, section: sectionIndex)))
                        }
                    }
                    position += 1
                    newFlat += 1
                }
            }
            let crossSectionMovesEnd = itemMoves.count
            if !candidatesSorted {  // sorted candidates are all in place: no subsequence to find
                var candidateKeys: [Int] = []
                var candidatePositions: [Int] = []
                candidateKeys.reserveCapacity(newFlat - sectionStart)
                candidatePositions.reserveCapacity(newFlat - sectionStart)
                for flat in sectionStart..<newFlat {
                    let packed = oldOfNew[flat]
                    guard packed >= 0, OldItemPositions<SectionID, ItemID>.section(ofPacked: packed) == sameSection else { continue }
                    candidateKeys.append(OldItemPositions<SectionID, ItemID>.flat(ofPacked: packed))
                    candidatePositions.append(flat - sectionStart)
                }
                let inPlace = longestIncreasingSubsequence(candidateKeys)
                itemMoves.reserveCapacity(itemMoves.count + inPlace.lazy.filter { !$0 }.count)
                // The moved items' identifiers, read in ascending position with a cursor over
                // the section's chunks.
                var chunkOrdinal = 0, chunkStart = 0
                var chunkItems = storage.chunkIDs.isEmpty ? [] : new.chunks[storage.chunkIDs[0]].items
                for k in 0..<candidateKeys.count where !inPlace[k] {
                    let target = candidatePositions[k]
                    while target - chunkStart >= chunkItems.count && chunkOrdinal + 1 < storage.chunkIDs.count {
                        chunkStart += chunkItems.count
                        chunkOrdinal += 1
                        chunkItems = new.chunks[storage.chunkIDs[chunkOrdinal]].items
                    }
                    itemMoves.append(ItemMove(
                        id: chunkItems[target - chunkStart],
                        from: IndexPath(item: candidateKeys[k] - oldSectionStart[sameSection], section: sameSection),
                        to: IndexPath(item: target, section: sectionIndex)))
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
            var flat = 0
            for (sectionIndex, storage) in old.sections.values.enumerated() {
                var position = 0
                for chunkID in storage.chunkIDs {
                    let items = old.chunks[chunkID].items
                    for offset in items.indices {
                        if newFlatOfOld[flat] < 0 {
                            itemDeletions.append(ItemChange(id: items[offset], indexPath: IndexPath(item: position, section: sectionIndex)))
                        }
                        position += 1
                        flat += 1
                    }
                }
            }
        }

        // 4. Reloads and reconfigures of surviving items (plain loops: a closure capturing
        //    `oldPositions` would box it).
        for (marked, reconfigure) in [(new.reloadedItems, false), (new.reconfiguredItems, true)] where !marked.isEmpty {
            var updates: [ItemMove] = []
            updates.reserveCapacity(marked.count)
            for id in marked {
                guard let (oldFlat, section) = oldPositions.position(of: id), case let target = newFlatOfOld[oldFlat], target >= 0 else { continue }
                let oldSection = Int(section)
                let newSection = Self.section(containing: target, starts: newSectionStart)
                updates.append(ItemMove(id: id,
                                        from: IndexPath(item: oldFlat - oldSectionStart[oldSection], section: oldSection),
                                        to: IndexPath(item: target - newSectionStart[newSection], section: newSection)))
            }
            if reconfigure { itemReconfigures = updates } else { itemReloads = updates }
        }
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

/// Where an old item is, as a flat index (sections concatenated) and a section index, found
/// through the old snapshot's own index: one hash lookup and a check of the offset hint.
///
/// Offset hints go stale after edits in the middle of a chunk; the first stale hint met in a
/// chunk indexes that chunk once, so a snapshot edited many times costs at most one hash per
/// old item, never a chunk scan per item. (A struct with a mutating method rather than a
/// closure capturing the repair table: a captured `var` is boxed and every call would pay
/// dynamic exclusivity checks.)
@usableFromInline
struct OldItemPositions<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable> {
    /// The old snapshot's chunks and index.
    @usableFromInline let chunks: [Snapshot<SectionID, ItemID>.Chunk]
    @usableFromInline let index: ItemIndex
    @usableFromInline let indexBits: Int
    @usableFromInline let indexCount: Int
    /// Per chunk id: the flat index of its first item.
    @usableFromInline var chunkFlatStart: [Int]
    /// Per chunk id: its section's index.
    @usableFromInline var chunkSection: [Int32]
    /// Per section index: the flat index of its first item; one more entry holds the total.
    @usableFromInline var sectionStart: [Int]
    /// The items of chunks whose hints were found stale, by tag.
    @usableFromInline var repaired: [Int: ChunkOffsets] = [:]

    @inlinable init(_ old: Snapshot<SectionID, ItemID>) {
        chunks = old.chunks
        index = old.index
        indexBits = old.index.bits
        indexCount = old.index.count
        chunkFlatStart = [Int](repeating: 0, count: old.chunks.count)
        chunkSection = [Int32](repeating: 0, count: old.chunks.count)
        sectionStart = [Int](repeating: 0, count: old.sections.count + 1)
        var flat = 0
        for (sectionIndex, storage) in old.sections.values.enumerated() {
            sectionStart[sectionIndex] = flat
            for chunkID in storage.chunkIDs {
                chunkFlatStart[chunkID] = flat
                chunkSection[chunkID] = Int32(truncatingIfNeeded: sectionIndex)
                flat += old.chunks[chunkID].items.count
            }
        }
        sectionStart[old.sections.count] = flat
    }

    /// An old item's flat index and section index packed in one `Int` (see ``flat(ofPacked:)``),
    /// or -1 when it is not in the old snapshot.
    @inlinable mutating func packedPosition(of item: ItemID, tag: UInt32) -> Int {
        guard let (flat, section) = position(of: item, tag: tag) else { return -1 }
        return Int(section) &<< 40 | flat
    }
    /// Flat indices below 2^40, section indices below 2^23.
    @inlinable static func flat(ofPacked packed: Int) -> Int { packed & (1 &<< 40 &- 1) }
    @inlinable static func section(ofPacked packed: Int) -> Int { packed &>> 40 }

    /// An old item's flat index and section index, or `nil` when it is not in the old snapshot.
    @inlinable mutating func position(of item: ItemID) -> (flat: Int, section: Int32)? {
        position(of: item, tag: Snapshot<SectionID, ItemID>.tag(of: item))
    }

    /// The same, for an item whose tag is known.
    @inlinable mutating func position(of item: ItemID, tag: UInt32) -> (flat: Int, section: Int32)? {
        guard indexCount > 0 else { return nil }
        let mask = index.bucketCount &- 1
        var bucket = ItemIndex.home(ofTag: tag, bits: indexBits)
        while true {
            let entry = index[bucket]
            if entry == 0 { return nil }
            if ItemIndex.tag(ofEntry: entry) == tag {
                let slot = ItemIndex.slot(ofEntry: entry)
                let chunkID = Snapshot<SectionID, ItemID>.chunkID(ofSlot: slot)
                let hint = Snapshot<SectionID, ItemID>.offsetHint(ofSlot: slot)
                if chunkID < chunks.count {
                    let hintHolds = chunks[chunkID].items.withUnsafeBufferPointer { hint < $0.count && $0[hint] == item }
                    if let offset = hintHolds ? hint : repairedOffset(of: item, tag: tag, hint: hint, inChunk: chunkID) {
                        return (chunkFlatStart[chunkID] &+ offset, chunkSection[chunkID])
                    }
                }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// The offset of an item whose hint is stale: in its chunk's items tabled by their stored
    /// tags, once the chunk has a table (a probe and a comparison); otherwise looked for a few
    /// places either side of the hint (a hint is off by what was inserted or removed before
    /// it), and only then is the chunk tabled (once, no item hashed).
    @inlinable mutating func repairedOffset(of item: ItemID, tag: UInt32, hint: Int, inChunk chunkID: Int) -> Int? {
        let items = chunks[chunkID].items
        if let offsets = repaired[chunkID] { return offsets.offset(of: item, tag: tag, in: items) }
        if let near = Snapshot<SectionID, ItemID>.offset(of: item, tag: tag, in: chunks[chunkID], hint: hint, limit: .max, window: 16) {
            return near
        }
        let offsets = ChunkOffsets(tags: chunks[chunkID].tags)
        repaired[chunkID] = offsets
        return offsets.offset(of: item, tag: tag, in: items)
    }
}

/// A chunk's items by their stored tags, for finding an item whose offset hint went stale
/// (an insertion or removal in the middle of its chunk moved it): an open-addressing table of
/// (tag, offset) entries, built from the tags alone.
@usableFromInline
struct ChunkOffsets: Sendable {
    @usableFromInline let table: [UInt64]
    @usableFromInline let bits: Int

    @inlinable init(tags: [UInt32]) {
        var bits = 3
        while 1 &<< bits < tags.count &* 2 { bits &+= 1 }
        var table = [UInt64](repeating: 0, count: 1 &<< bits)
        let mask = table.count &- 1
        for (offset, tag) in tags.enumerated() {
            var bucket = ItemIndex.home(ofTag: tag, bits: bits)
            while table[bucket] != 0 { bucket = (bucket &+ 1) & mask }
            table[bucket] = ItemIndex.entry(tag: tag, slot: offset)
        }
        self.table = table
        self.bits = bits
    }

    /// Where `item` (whose tag is `tag`) is in `items` (the chunk's items, in step with the tags).
    @inlinable func offset<ItemID: Equatable>(of item: ItemID, tag: UInt32, in items: [ItemID]) -> Int? {
        let mask = table.count &- 1
        var bucket = ItemIndex.home(ofTag: tag, bits: bits)
        while true {
            let entry = table[bucket]
            if entry == 0 { return nil }
            if ItemIndex.tag(ofEntry: entry) == tag {
                let offset = ItemIndex.slot(ofEntry: entry)
                if offset < items.count && items[offset] == item { return offset }
            }
            bucket = (bucket &+ 1) & mask
        }
    }
}
