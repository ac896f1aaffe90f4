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
        guard let slot = itemSlots[item], let (chunkID, offset) = resolve(item, slot: slot),
              let section = chunks[chunkID].section,
              let ordinal = sections[section]?.chunkIDs.firstIndex(of: chunkID)
        else { return nil }
        return ItemLocation(section: section, chunkID: chunkID, chunkOrdinal: ordinal, offset: offset)
    }

    /// An item's chunk and exact offset from its slot: the hint when it is still right,
    /// otherwise a scan of that chunk. - Complexity: O(1) with a valid hint, else O(chunk).
    @inlinable func resolve(_ item: ItemID, slot: Int) -> (chunkID: Int, offset: Int)? {
        let chunkID = Self.chunkID(ofSlot: slot), hint = Self.offsetHint(ofSlot: slot)
        guard chunkID >= 0, chunkID < chunks.count else { return nil }
        return chunks[chunkID].items.withUnsafeBufferPointer { items in
            if hint < items.count && items[hint] == item { return (chunkID, hint) }
            return items.firstIndex(of: item).map { (chunkID, $0) }
        }
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
        for (offset, item) in items.enumerated() { itemSlots[item] = Self.slot(chunk: chunkID, offset: offset) }
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
            let base = chunks[last].items.count
            chunks[last].items.append(contentsOf: newItems[0..<end])
            for (offset, item) in newItems[0..<end].enumerated() { itemSlots[item] = Self.slot(chunk: last, offset: base + offset) }
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
        // New items that stayed in this chunk get exact offset hints (a split re-indexed what it
        // moved); items after the insertion point keep stale hints, which readers verify.
        let stayed = chunks[chunkID].items.count
        if location.offset < stayed {
            for offset in location.offset..<min(location.offset + newItems.count, stayed) {
                itemSlots[chunks[chunkID].items[offset]] = Self.slot(chunk: chunkID, offset: offset)
            }
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
            if let slot = itemSlots.removeValue(forKey: item) { touchedChunks[Self.chunkID(ofSlot: slot), default: 0] += 1 }
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
        itemSlots.reserveCapacity(itemSlots.count + newItems.count)
        for (index, item) in newItems.enumerated() {
            guard let previous = itemSlots.updateValue(-1, forKey: item) else { continue }
            // Roll back. A pre-existing item had its chunk overwritten: restore it. A repeat
            // within the call (previous == -1) is undone with the earlier claims.
            if previous != -1 { itemSlots[item] = previous }
            for earlier in newItems[..<index] where itemSlots[earlier] == -1 { itemSlots[earlier] = nil }
            try validateNewItems(newItems)  // throws, naming every culprit
            throw .duplicateItems(of: [item])
        }
    }

    /// Throws unless every identifier is new to the snapshot and unique within the call.
    /// - Complexity: O(k).
    @inlinable func validateNewItems(_ newItems: [ItemID]) throws(SnapshotError) {
        var duplicates: OrderedSet<ItemID> = []
        if newItems.count == 1 {
            if itemSlots[newItems[0]] != nil { duplicates.append(newItems[0]) }
        } else {
            var seen = Set<ItemID>(minimumCapacity: newItems.count)
            for item in newItems where !seen.insert(item).inserted || itemSlots[item] != nil {
                duplicates.append(item)
            }
        }
        if !duplicates.isEmpty { throw .duplicateItems(of: duplicates) }
    }

    /// Throws unless every identifier is in the snapshot.
    @inlinable func validateKnownItems(_ items: [ItemID]) throws(SnapshotError) {
        let unknown = items.filter { itemSlots[$0] == nil }
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
