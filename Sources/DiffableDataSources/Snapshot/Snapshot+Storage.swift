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

    /// Stores a chunk and points the index at its items.
    @inlinable mutating func allocateChunk(_ items: [ItemID], in section: SectionID) -> Int {
        let chunkID = storeChunk(items, in: section)
        for (offset, item) in items.enumerated() { itemSlots[item] = Self.slot(chunk: chunkID, offset: offset) }
        return chunkID
    }

    @inlinable mutating func freeChunk(_ chunkID: Int) {
        chunks[chunkID] = Chunk(items: [], section: nil)
        freeChunkIDs.append(chunkID)
    }

    /// Appends new items to the end of a section in one pass over them, at one hash operation
    /// per item: each item's final place (the rest of the section's last chunk, then fresh
    /// chunks) is known before it is stored, so one insertion into the index both records its
    /// slot and reports an identifier already there. Chunks are filled as the items stream by;
    /// the snapshot's chunk storage is touched only once every item is claimed.
    ///
    /// On a duplicate (already in the snapshot, or repeated in the call) the index is rolled
    /// back and ``SnapshotError/duplicateItems(_:)`` thrown naming every culprit, leaving the
    /// snapshot exactly as it was.
    /// - Complexity: O(k) for k items.
    @inlinable mutating func appendNewItems<Items: Sequence<ItemID>>(_ newItems: Items, to section: SectionID) throws(SnapshotError) {
        // Contiguous input (an array) is claimed in place and copied into chunks in bulk.
        var contiguousFailure: SnapshotError?
        let done: Void? = newItems.withContiguousStorageIfAvailable { buffer in
            do throws(SnapshotError) { try appendNewItems(buffer: buffer, to: section) } catch { contiguousFailure = error }
        }
        if let contiguousFailure { throw contiguousFailure }
        if done != nil { return }
        guard var storage = sections[section] else { return }
        let chunkSize = Self.appendChunkCount
        let expected = newItems.underestimatedCount
        if expected > 0 { itemSlots.reserveCapacity(itemSlots.count + expected) }

        // The section's last chunk takes items until it holds `chunkSize`.
        var tailID = -1, tailBase = 0
        if let last = storage.chunkIDs.last, chunks[last].items.count < chunkSize {
            tailID = last
            tailBase = chunks[last].items.count
        }
        var tail: [ItemID] = []
        if tailID >= 0 { tail.reserveCapacity(Swift.min(chunkSize - tailBase, Swift.max(expected, 1))) }
        // Fresh chunks get ids as `storeChunk` will hand them out: freed slots first (last
        // freed first), then new ones at the end of `chunks`.
        let freeCount = freeChunkIDs.count, chunkCount = chunks.count
        var pieces: [[ItemID]] = []
        var piece: [ItemID] = []
        var pieceID = 0, pieceCount = 0

        var iterator = newItems.makeIterator()
        var failure: (item: ItemID, previous: Int)?
        while let item = iterator.next() {
            let slot: Int
            if tailID >= 0 && tailBase + tail.count < chunkSize {
                slot = Self.slot(chunk: tailID, offset: tailBase + tail.count)
                if let previous = itemSlots.updateValue(slot, forKey: item) { failure = (item, previous); break }
                tail.append(item)
            } else {
                if pieceCount == 0 || pieceCount == chunkSize {
                    if pieceCount == chunkSize { pieces.append(piece) }
                    let k = pieces.count
                    pieceID = k < freeCount ? freeChunkIDs[freeCount - 1 - k] : chunkCount + (k - freeCount)
                    piece = []
                    piece.reserveCapacity(chunkSize)
                    pieceCount = 0
                }
                slot = Self.slot(chunk: pieceID, offset: pieceCount)
                if let previous = itemSlots.updateValue(slot, forKey: item) { failure = (item, previous); break }
                piece.append(item)
                pieceCount += 1
            }
        }
        if pieceCount > 0 { pieces.append(piece) }

        if let (item, previous) = failure {
            // Every item claimed before the culprit was new and unique (a repeat fails at once):
            // remove them. The culprit's slot was overwritten: if it repeats one of them it is
            // gone now; otherwise it was already in the snapshot, so restore its slot.
            for claimed in tail { itemSlots.removeValue(forKey: claimed) }
            for claimedPiece in pieces { for claimed in claimedPiece { itemSlots.removeValue(forKey: claimed) } }
            if itemSlots[item] != nil { itemSlots[item] = previous }
            var all = tail
            for claimedPiece in pieces { all.append(contentsOf: claimedPiece) }
            all.append(item)
            while let rest = iterator.next() { all.append(rest) }
            try validateNewItems(all)  // throws, naming every culprit in order
            throw .duplicateItems(of: [item])
        }

        // Every item is claimed: store them.
        var added = tail.count
        if !tail.isEmpty { chunks[tailID].items.append(contentsOf: tail) }
        for chunkItems in pieces {
            added += chunkItems.count
            storage.chunkIDs.append(storeChunk(chunkItems, in: section))
        }
        guard added > 0 else { return }
        storage.count += added
        sections[section] = storage
    }

    /// ``appendNewItems(_:to:)`` for items in contiguous memory: the same single hash
    /// insertion per item, and each chunk made by one bulk copy of its run of the buffer
    /// (no per-item copy of the identifier besides the one into the index).
    @inlinable mutating func appendNewItems(buffer newItems: UnsafeBufferPointer<ItemID>, to section: SectionID) throws(SnapshotError) {
        guard !newItems.isEmpty, var storage = sections[section] else { return }
        let chunkSize = Self.appendChunkCount
        let count = newItems.count
        itemSlots.reserveCapacity(itemSlots.count + count)
        var tailID = -1, tailBase = 0, room = 0
        if let last = storage.chunkIDs.last, chunks[last].items.count < chunkSize {
            tailID = last
            tailBase = chunks[last].items.count
            room = Swift.min(count, chunkSize - tailBase)
        }
        // Fresh chunk k gets the id `storeChunk` will hand it: freed slots first, then new ones.
        let freeCount = freeChunkIDs.count, chunkCount = chunks.count
        func freshID(_ k: Int) -> Int { k < freeCount ? freeChunkIDs[freeCount - 1 - k] : chunkCount + (k - freeCount) }

        // Claim: one insertion per item, which also reports an identifier already there.
        var failure: (index: Int, previous: Int)?
        var start = 0, k = 0
        claiming: while start < count {
            let chunkID: Int, end: Int, base: Int
            if start < room {
                chunkID = tailID; end = room; base = tailBase
            } else {
                chunkID = freshID(k); end = Swift.min(count, start + chunkSize); base = 0
                k += 1
            }
            for index in start..<end {
                let slot = Self.slot(chunk: chunkID, offset: base &+ (index &- start))
                if let previous = itemSlots.updateValue(slot, forKey: newItems[index]) {
                    failure = (index, previous)
                    break claiming
                }
            }
            start = end
        }
        if let (index, previous) = failure {
            // Every item before the culprit was new and unique (a repeat fails at once): remove
            // them. The culprit's slot was overwritten: if it repeats one of them it is gone
            // now; otherwise it was already in the snapshot, so restore its slot.
            for claimed in newItems[..<index] { itemSlots.removeValue(forKey: claimed) }
            if itemSlots[newItems[index]] != nil { itemSlots[newItems[index]] = previous }
            try validateNewItems(Array(newItems))  // throws, naming every culprit in order
            throw .duplicateItems(of: [newItems[index]])
        }

        // Every item is claimed: store them, one bulk copy per chunk.
        if room > 0 { chunks[tailID].items.append(contentsOf: UnsafeBufferPointer(rebasing: newItems[0..<room])) }
        start = room
        while start < count {
            let end = Swift.min(count, start + chunkSize)
            storage.chunkIDs.append(storeChunk(Array(UnsafeBufferPointer(rebasing: newItems[start..<end])), in: section))
            start = end
        }
        storage.count += count
        sections[section] = storage
    }

    /// Stores a chunk whose items the index already points to; returns its id (a freed slot,
    /// last freed first, else a new one at the end).
    @inlinable mutating func storeChunk(_ items: [ItemID], in section: SectionID) -> Int {
        if let reused = freeChunkIDs.popLast() {
            chunks[reused] = Chunk(items: items, section: section)
            return reused
        }
        chunks.append(Chunk(items: items, section: section))
        return chunks.count - 1
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
