import OrderedCollections
extension Snapshot {
    /// Checks the storage's internal consistency; tests call it after every mutation.
    /// Returns a description of the first broken invariant, or `nil` when all hold.
    @inlinable public func _brokenInvariant() -> String? {
        var itemsSeen = 0
        var chunksInUse = Set<Int>()
        for (section, storage) in sections {
            var count = 0
            for chunkID in storage.chunkIDs {
                guard chunkID >= 0, chunkID < chunks.count else { return "chunk \(chunkID) out of range" }
                guard chunksInUse.insert(chunkID).inserted else { return "chunk \(chunkID) used twice" }
                let chunk = chunks[chunkID]
                guard chunk.section == section else { return "chunk \(chunkID) names the wrong section" }
                guard !chunk.items.isEmpty else { return "empty chunk \(chunkID) in section \(section)" }
                guard chunk.items.count <= Self.maximumChunkCount else { return "oversized chunk \(chunkID)" }
                guard chunk.tags == chunk.items.map(Self.tag(of:)) else { return "chunk \(chunkID) has wrong tags" }
                // An entry with the item's tag names this chunk (checked without scanning chunks,
                // so tests can run this after every mutation of large snapshots).
                for item in chunk.items where !_hasEntry(item, inChunk: chunkID) {
                    return "item \(item) not indexed to chunk \(chunkID)"
                }
                count += chunk.items.count
            }
            guard count == storage.count else { return "section \(section) counts \(storage.count), holds \(count)" }
            itemsSeen += count
        }
        guard itemsSeen == index.count else { return "index has \(index.count) items, sections \(itemsSeen)" }
        guard index.entries.lazy.filter({ $0 != 0 }).count == index.count else { return "index counts \(index.count) entries wrongly" }
        for entry in index.entries where entry != 0 {
            let chunkID = Self.chunkID(ofSlot: ItemIndex.slot(ofEntry: entry))
            guard chunkID < chunks.count, chunks[chunkID].section != nil else { return "index entry names dead chunk \(chunkID)" }
        }
        for chunkID in freeChunkIDs where chunks[chunkID].section != nil { return "free chunk \(chunkID) still owned" }
        guard chunksInUse.count + freeChunkIDs.count == chunks.count else { return "leaked chunks" }
        for item in reloadedItems where !isIndexed(item) { return "reload mark on missing item \(item)" }
        for item in reconfiguredItems where !isIndexed(item) { return "reconfigure mark on missing item \(item)" }
        for section in reloadedSections where sections[section] == nil { return "reload mark on missing section \(section)" }
        return nil
    }
}
