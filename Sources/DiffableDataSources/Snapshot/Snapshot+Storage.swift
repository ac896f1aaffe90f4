import OrderedCollections

// The chunked item storage behind `Snapshot`: every mutation goes through these few
// helpers, so the invariants (see Snapshot+Invariants.swift) are kept in one place.

extension Snapshot {
    /// Where an item lives: its section, its chunk, and its offset in that chunk.
    @usableFromInline
    struct ItemLocation {
        @usableFromInline var section: SectionID
        @usableFromInline var chunkID: Int
        /// The chunk's position in its section's chunk list.
        @usableFromInline var chunkOrdinal: Int
        /// The item's position in its chunk.
        @usableFromInline var offset: Int
        @inlinable init(section: SectionID, chunkID: Int, chunkOrdinal: Int, offset: Int) {
            self.section = section; self.chunkID = chunkID; self.chunkOrdinal = chunkOrdinal; self.offset = offset
        }
    }

    /// - Complexity: Expected O(1) hash lookup, plus a scan of one chunk and of the
    ///   section's chunk list.
    @inlinable func location(of item: ItemID) -> ItemLocation? {
        guard let chunkID = chunkOfItem[item],
              let section = chunks[chunkID].section,
              let offset = chunks[chunkID].items.firstIndex(of: item),
              let ordinal = sections[section]?.chunkIDs.firstIndex(of: chunkID)
        else { return nil }
        return ItemLocation(section: section, chunkID: chunkID, chunkOrdinal: ordinal, offset: offset)
    }

    /// The index of a located item within its section.
    @inlinable func indexInSection(_ location: ItemLocation) -> Int {
        guard let storage = sections[location.section] else { return location.offset }
        var index = location.offset
        for ordinal in 0..<location.chunkOrdinal {
            index += chunks[storage.chunkIDs[ordinal]].items.count
        }
        return index
    }

    /// The items of a section, in order.
    @inlinable func items(of storage: SectionStorage) -> [ItemID] {
        var result: [ItemID] = []
        result.reserveCapacity(storage.count)
        for chunkID in storage.chunkIDs { result.append(contentsOf: chunks[chunkID].items) }
        return result
    }

    @inlinable mutating func allocateChunk(_ items: [ItemID], in section: SectionID) -> Int {
        let chunkID: Int
        if let reused = freeChunkIDs.popLast() {
            chunkID = reused
            chunks[reused] = Chunk(items: items, section: section)
        } else {
            chunkID = chunks.count
            chunks.append(Chunk(items: items, section: section))
        }
        for item in items { chunkOfItem[item] = chunkID }
        return chunkID
    }

    @inlinable mutating func freeChunk(_ chunkID: Int) {
        chunks[chunkID] = Chunk(items: [], section: nil)
        freeChunkIDs.append(chunkID)
    }

    /// Appends already-validated items to the end of a section.
    /// - Complexity: O(k) for k items.
    @inlinable mutating func storeAppending(_ newItems: [ItemID], to section: SectionID) {
        guard !newItems.isEmpty, var storage = sections[section] else { return }
        var start = 0
        if let last = storage.chunkIDs.last, chunks[last].items.count < Self.appendChunkCount {
            let room = Self.appendChunkCount - chunks[last].items.count
            let end = min(newItems.count, room)
            chunks[last].items.append(contentsOf: newItems[0..<end])
            for item in newItems[0..<end] { chunkOfItem[item] = last }
            start = end
        }
        while start < newItems.count {
            let end = min(newItems.count, start + Self.appendChunkCount)
            storage.chunkIDs.append(allocateChunk(Array(newItems[start..<end]), in: section))
            start = end
        }
        storage.count += newItems.count
        sections[section] = storage
    }

    /// Inserts already-validated items into a chunk at an offset, splitting the chunk if it
    /// grows too large.
    /// - Complexity: O(k + chunk size + chunks in the section).
    @inlinable mutating func storeInserting(_ newItems: [ItemID], at location: ItemLocation) {
        guard !newItems.isEmpty, var storage = sections[location.section] else { return }
        let chunkID = location.chunkID
        chunks[chunkID].items.insert(contentsOf: newItems, at: location.offset)
        for item in newItems { chunkOfItem[item] = chunkID }
        if chunks[chunkID].items.count > Self.maximumChunkCount {
            let all = chunks[chunkID].items
            chunks[chunkID].items = Array(all[0..<Self.appendChunkCount])
            var pieces: [Int] = []
            var start = Self.appendChunkCount
            while start < all.count {
                let end = min(all.count, start + Self.appendChunkCount)
                pieces.append(allocateChunk(Array(all[start..<end]), in: location.section))
                start = end
            }
            storage.chunkIDs.insert(contentsOf: pieces, at: location.chunkOrdinal + 1)
        }
        storage.count += newItems.count
        sections[location.section] = storage
    }

    /// Removes items known to be in the snapshot, and their reload/reconfigure marks.
    /// - Complexity: O(k) plus one pass over each chunk that loses items.
    @inlinable mutating func storeRemoving(_ doomed: [ItemID]) {
        guard !doomed.isEmpty else { return }
        var touchedChunks: [Int: Int] = [:]  // chunk id -> items removed from it
        for item in doomed {
            if let chunkID = chunkOfItem.removeValue(forKey: item) { touchedChunks[chunkID, default: 0] += 1 }
        }
        let doomedSet: Set<ItemID>? = doomed.count > 1 ? Set(doomed) : nil
        var emptiedBySection: [SectionID: Set<Int>] = [:]
        for (chunkID, removed) in touchedChunks {
            guard let section = chunks[chunkID].section else { continue }
            if let doomedSet {
                chunks[chunkID].items.removeAll { doomedSet.contains($0) }
            } else if let offset = chunks[chunkID].items.firstIndex(of: doomed[0]) {
                chunks[chunkID].items.remove(at: offset)
            }
            sections[section]?.count -= removed
            if chunks[chunkID].items.isEmpty {
                emptiedBySection[section, default: []].insert(chunkID)
                freeChunk(chunkID)
            }
        }
        for (section, emptied) in emptiedBySection {
            sections[section]?.chunkIDs.removeAll { emptied.contains($0) }
        }
        removeMarks(forItems: doomed)
    }

    @inlinable mutating func removeMarks(forItems doomed: [ItemID]) {
        guard !reloadedItems.isEmpty || !reconfiguredItems.isEmpty else { return }
        for item in doomed {
            reloadedItems.remove(item)
            reconfiguredItems.remove(item)
        }
    }

    /// Checks that every identifier is new to the snapshot and unique within the call, and
    /// reserves them in the index (the store helpers then record their chunks). One hash
    /// operation per item on success; on failure everything is rolled back and the full
    /// list of culprits thrown.
    /// - Complexity: O(k).
    @inlinable mutating func claimNewItems(_ newItems: [ItemID]) throws(SnapshotError) {
        chunkOfItem.reserveCapacity(chunkOfItem.count + newItems.count)
        for (index, item) in newItems.enumerated() {
            guard let previous = chunkOfItem.updateValue(-1, forKey: item) else { continue }
            // Roll back. A pre-existing item had its chunk overwritten: restore it. A repeat
            // within the call (previous == -1) is undone with the earlier claims.
            if previous != -1 { chunkOfItem[item] = previous }
            for earlier in newItems[..<index] where chunkOfItem[earlier] == -1 { chunkOfItem[earlier] = nil }
            try validateNewItems(newItems)  // throws, naming every culprit
            throw .duplicateItems(of: [item])
        }
    }

    /// Throws unless every identifier is new to the snapshot and unique within the call.
    /// - Complexity: O(k).
    @inlinable func validateNewItems(_ newItems: [ItemID]) throws(SnapshotError) {
        var duplicates: OrderedSet<ItemID> = []
        if newItems.count == 1 {
            if chunkOfItem[newItems[0]] != nil { duplicates.append(newItems[0]) }
        } else {
            var seen = Set<ItemID>(minimumCapacity: newItems.count)
            for item in newItems where !seen.insert(item).inserted || chunkOfItem[item] != nil {
                duplicates.append(item)
            }
        }
        if !duplicates.isEmpty { throw .duplicateItems(of: duplicates) }
    }

    /// Throws unless every identifier is in the snapshot.
    @inlinable func validateKnownItems(_ items: [ItemID]) throws(SnapshotError) {
        let unknown = items.filter { chunkOfItem[$0] == nil }
        if !unknown.isEmpty { throw .unknownItems(of: OrderedSet(unknown)) }
    }

    /// Throws unless every identifier is a section of the snapshot.
    @inlinable func validateKnownSections(_ ids: [SectionID]) throws(SnapshotError) {
        let unknown = ids.filter { sections[$0] == nil }
        if !unknown.isEmpty { throw .unknownSections(of: OrderedSet(unknown)) }
    }

    /// Throws unless every identifier is new to the snapshot and unique within the call.
    @inlinable func validateNewSections(_ ids: [SectionID]) throws(SnapshotError) {
        var seen = Set<SectionID>(minimumCapacity: ids.count)
        var duplicates: OrderedSet<SectionID> = []
        for id in ids where !seen.insert(id).inserted || sections[id] != nil { duplicates.append(id) }
        if !duplicates.isEmpty { throw .duplicateSections(of: duplicates) }
    }
}
