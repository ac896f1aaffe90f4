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
        guard let (_, chunkID, offset) = indexFind(item),
              let section = chunks[chunkID].section,
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

    /// Stores a chunk of items split off chunk `from`, and points their entries at it.
    @inlinable mutating func allocateChunk(_ items: [ItemID], tags: [UInt32], splitFrom source: Int, in section: SectionID) -> Int {
        let chunkID = storeChunk(items, tags: tags, in: section)
        for (offset, tag) in tags.enumerated() { indexRelocate(tag: tag, from: source, to: Self.slot(chunk: chunkID, offset: offset)) }
        return chunkID
    }

    @inlinable mutating func freeChunk(_ chunkID: Int) {
        chunks[chunkID] = Chunk(items: [], tags: [], section: nil)
        freeChunkIDs.append(chunkID)
    }

    /// Appends new items to the end of a section at one hash and one index insertion per
    /// item. The items are stored first (the rest of the section's last chunk, then fresh
    /// chunks), then each is indexed; the probe that finds its bucket also meets any entry
    /// for the same item, already in the snapshot or earlier in the call.
    ///
    /// On a duplicate the index and the chunks are rolled back and
    /// ``SnapshotError/duplicateItems(_:)`` thrown naming every culprit, leaving the snapshot
    /// exactly as it was.
    /// - Complexity: O(k) for k items.
    @inlinable mutating func appendNewItems<Items: Sequence<ItemID>>(_ newItems: Items, to section: SectionID) throws(SnapshotError) {
        var contiguousFailure: SnapshotError?
        let done: Void? = newItems.withContiguousStorageIfAvailable { buffer in
            do throws(SnapshotError) { try appendNewItems(buffer: buffer, to: section) } catch { contiguousFailure = error }
        }
        if let contiguousFailure { throw contiguousFailure }
        if done != nil { return }
        try Array(newItems).withUnsafeBufferPointer { buffer throws(SnapshotError) in
            try appendNewItems(buffer: buffer, to: section)
        }
    }

    /// ``appendNewItems(_:to:)`` for items in contiguous memory.
    @inlinable mutating func appendNewItems(buffer newItems: UnsafeBufferPointer<ItemID>, to section: SectionID) throws(SnapshotError) {
        guard !newItems.isEmpty, var storage = sections[section] else { return }
        let chunkSize = Self.appendChunkCount
        let count = newItems.count

        // 1. Store: fill the last chunk, then fresh chunks, one bulk copy each.
        var tailID = -1, tailBase = 0, room = 0
        if let last = storage.chunkIDs.last, chunks[last].items.count < chunkSize {
            tailID = last
            tailBase = chunks[last].items.count
            room = Swift.min(count, chunkSize - tailBase)
        }
        let savedChunkCount = chunks.count, savedFreeChunkIDs = freeChunkIDs
        let tags = [UInt32](unsafeUninitializedCapacity: count) { tags, initialized in
            for position in 0..<count { tags[position] = Self.tag(of: newItems[position]) }  // the one hash per item
            initialized = count
        }
        if room > 0 {
            chunks[tailID].items.append(contentsOf: UnsafeBufferPointer(rebasing: newItems[0..<room]))
            chunks[tailID].tags.append(contentsOf: tags[0..<room])
        }
        var freshIDs: [Int] = []
        freshIDs.reserveCapacity((count - room + chunkSize - 1) / chunkSize)
        var start = room
        while start < count {
            let end = Swift.min(count, start + chunkSize)
            freshIDs.append(storeChunk(Array(UnsafeBufferPointer(rebasing: newItems[start..<end])), tags: Array(tags[start..<end]), in: section))
            start = end
        }

        // 2. Index: one probe per item.
        let stored = chunks
        /// Indexes the stored items in order through `table`; returns how many were indexed
        /// before the first duplicate (all of them when there is none).
        func claim<Table: BucketTable>(_ table: inout Table, buckets: Int, bits: Int) -> Int {
            let mask = buckets &- 1
            var start = 0, fresh = 0, claimed = 0
            while start < count {
                let chunkID: Int, end: Int, base: Int
                if start < room {
                    chunkID = tailID; end = room; base = tailBase
                } else {
                    chunkID = freshIDs[fresh]; end = Swift.min(count, start + chunkSize); base = 0
                    fresh += 1
                }
                for position in start..<end {
                    let offset = base &+ (position &- start)
                    let tag = tags[position]
                    var bucket = ItemIndex.home(ofTag: tag, bits: bits)
                    while true {
                        let entry = table[bucket]
                        if entry == 0 { break }
                        if ItemIndex.tag(ofEntry: entry) == tag {
                            // The same item if its chunk holds it among the items indexed so far.
                            let slot = ItemIndex.slot(ofEntry: entry)
                            let other = Self.chunkID(ofSlot: slot)
                            if other < stored.count,
                               Self.offset(of: newItems[position], tag: tag, in: stored[other], hint: Self.offsetHint(ofSlot: slot),
                                           limit: other == chunkID ? offset : .max) != nil {
                                return claimed
                            }
                        }
                        bucket = (bucket &+ 1) & mask
                    }
                    table[bucket] = ItemIndex.entry(tag: tag, slot: Self.slot(chunk: chunkID, offset: offset))
                    claimed &+= 1
                }
                start = end
            }
            return claimed
        }
        let claimed: Int
        if count &* 8 >= index.bucketCount {
            // A batch the size of the list: in one flat table (grown at once if need be), written in place.
            var table = index.grownFlat(for: index.count + count) ?? index.takeFlat()
            let (buckets, bits) = (table.count, index.bits)
            claimed = table.withUnsafeMutableBufferPointer { table in claim(&table, buckets: buckets, bits: bits) }
            index.putFlat(table)
        } else {
            // A few items: through the pages, of which a shared one is copied on its first write.
            index.reserve(index.count + count)
            var pages = index
            index = ItemIndex()
            claimed = claim(&pages, buckets: pages.bucketCount, bits: pages.bits)
            index = pages
        }
        index.count += claimed

        if claimed < count {
            // 3. A duplicate: remove the entries made, then the stored items.
            for position in 0..<claimed {
                let chunkID: Int, offset: Int
                if position < room {
                    chunkID = tailID; offset = tailBase + position
                } else {
                    chunkID = freshIDs[(position - room) / chunkSize]; offset = (position - room) % chunkSize
                }
                let entry = ItemIndex.entry(tag: tags[position], slot: Self.slot(chunk: chunkID, offset: offset))
                if let bucket = index.bucket(ofEntry: entry) { index.remove(atBucket: bucket) }
            }
            if room > 0 { chunks[tailID].items.removeLast(room); chunks[tailID].tags.removeLast(room) }
            for chunkID in freshIDs where chunkID < savedChunkCount { chunks[chunkID] = Chunk(items: [], tags: [], section: nil) }
            chunks.removeLast(chunks.count - savedChunkCount)
            freeChunkIDs = savedFreeChunkIDs
            try validateNewItems(Array(newItems))  // throws, naming every culprit in order
            throw .duplicateItems(of: [newItems[claimed]])
        }

        storage.chunkIDs.append(contentsOf: freshIDs)
        storage.count += count
        sections[section] = storage
        journalNote(newItems)
    }

    /// Stores a chunk whose items the index already points to; returns its id (a freed slot,
    /// last freed first, else a new one at the end).
    @inlinable mutating func storeChunk(_ items: [ItemID], tags: [UInt32], in section: SectionID) -> Int {
        if let reused = freeChunkIDs.popLast() {
            chunks[reused] = Chunk(items: items, tags: tags, section: section)
            return reused
        }
        chunks.append(Chunk(items: items, tags: tags, section: section))
        return chunks.count - 1
    }

    /// Inserts already-validated items into a chunk at an offset, splitting the chunk if it
    /// grows too large.
    /// - Complexity: O(k + chunk size + chunks in the section).
    @inlinable mutating func storeInserting(_ newItems: [ItemID], at location: ItemLocation) {
        guard !newItems.isEmpty, var storage = sections[location.section] else { return }
        let chunkID = location.chunkID
        journalNote(newItems)
        let newTags = newItems.map(Self.tag(of:))
        chunks[chunkID].items.insert(contentsOf: newItems, at: location.offset)
        chunks[chunkID].tags.insert(contentsOf: newTags, at: location.offset)
        // The new items get exact offset hints; the items they pushed along keep theirs, now
        // stale: readers verify a hint and scan its one chunk by tag when it misses (a diff
        // tables the chunk's tags once, ``ChunkOffsets``). Repointing them cost a probe each and,
        // in a copy of a snapshot, a copy of nearly every page of the index (their entries are
        // scattered): a write would cost the size of the list.
        for (k, tag) in newTags.enumerated() { indexInsertNew(tag: tag, slot: Self.slot(chunk: chunkID, offset: location.offset + k)) }
        if chunks[chunkID].items.count > Self.maximumChunkCount {
            let all = chunks[chunkID].items, allTags = chunks[chunkID].tags
            chunks[chunkID].items = Array(all[0..<Self.appendChunkCount])
            chunks[chunkID].tags = Array(allTags[0..<Self.appendChunkCount])
            var pieces: [Int] = []
            var start = Self.appendChunkCount
            while start < all.count {
                let end = min(all.count, start + Self.appendChunkCount)
                pieces.append(allocateChunk(Array(all[start..<end]), tags: Array(allTags[start..<end]), splitFrom: chunkID, in: location.section))
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
        journalNote(doomed)
        var touchedChunks: [Int: Int] = [:]  // chunk id -> items removed from it
        for item in doomed {
            if let chunkID = indexRemove(item) { touchedChunks[chunkID, default: 0] += 1 }
        }
        let doomedSet: Set<ItemID>? = doomed.count > 1 ? Set(doomed) : nil
        var emptiedBySection: [SectionID: Set<Int>] = [:]
        for (chunkID, removed) in touchedChunks {
            guard let section = chunks[chunkID].section else { continue }
            if let doomedSet {
                // Compact items and tags in step.
                var chunk = chunks[chunkID]
                chunks[chunkID] = Chunk(items: [], tags: [], section: nil)  // `chunk` is now unique
                var kept = 0
                for offset in chunk.items.indices where !doomedSet.contains(chunk.items[offset]) {
                    chunk.items.swapAt(kept, offset)
                    chunk.tags.swapAt(kept, offset)
                    kept += 1
                }
                chunk.items.removeLast(chunk.items.count - kept)
                chunk.tags.removeLast(chunk.tags.count - kept)
                chunks[chunkID] = chunk  // later items' hints go stale (see ``storeInserting(_:at:)``)
            } else if let offset = chunks[chunkID].items.firstIndex(of: doomed[0]) {
                chunks[chunkID].items.remove(at: offset)
                chunks[chunkID].tags.remove(at: offset)
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
            if isIndexed(newItems[0]) { duplicates.append(newItems[0]) }
        } else {
            var seen = Set<ItemID>(minimumCapacity: newItems.count)
            for item in newItems where !seen.insert(item).inserted || isIndexed(item) {
                duplicates.append(item)
            }
        }
        if !duplicates.isEmpty { throw .duplicateItems(of: duplicates) }
    }

    /// Throws unless every identifier is in the snapshot.
    @inlinable func validateKnownItems(_ items: [ItemID]) throws(SnapshotError) {
        let unknown = items.filter { !isIndexed($0) }
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
