// The item index behind `Snapshot`: from an item to its slot (chunk id and offset hint).
//
// It is an open-addressing hash table (linear probing) that stores no keys: 8 bytes per
// bucket, the item's *tag* (the high 32 bits of its hash value) and its slot. The key is
// the item in the chunk the slot names, so an entry is confirmed by looking there (the
// offset hint first, then the chunk). Compared with a `[ItemID: Int]`, a probe reads one
// small table instead of a bitmap, a key array and a value array, and the table is a
// third to a sixth of the size, so far more of it stays in cache. Growing rehashes from
// the tags alone: a bucket is the top bits of the tag, so no item is hashed twice.
//
// Entries are interchangeable among items with the same tag in the same chunk (every
// reader confirms membership in the chunk and never trusts a hint blindly), which is what
// lets a chunk split move entries by (tag, chunk) without comparing keys.

/// An open-addressing table of (tag, slot) entries; see Snapshot+Index.swift.
///
/// The buckets are kept in pages of at most ``pageSize`` (4 KiB each), not one array: a
/// snapshot is copied on write, and a write to a copy's index then copies the one page it
/// touches (and the list of pages), not the whole table. A move in a 100,000-item list copied
/// its 2 MiB table; now a 4 KiB page and a list of 512 page references.
@usableFromInline
struct ItemIndex: Sendable {
    /// Buckets per page, as a shift: bucket `b` is entry `b & (pageSize - 1)` of page `b >> pageBits`.
    @usableFromInline static var pageBits: Int { 9 }
    @usableFromInline static var pageSize: Int { 1 &<< pageBits }
    /// Per bucket: the tag in the high 32 bits, the slot + 1 in the low 32; 0 is empty. All
    /// pages have the same size (the table's, when it is smaller than ``pageSize``).
    @usableFromInline var pages: [[UInt64]] = []
    /// The number of entries (items indexed).
    @usableFromInline var count = 0
    /// log2 of the bucket count (0 while empty).
    @usableFromInline var bits = 0

    @inlinable init() {}

    /// The number of buckets (0 while empty, then a power of two).
    @inlinable var bucketCount: Int { pages.isEmpty ? 0 : 1 &<< bits }

    /// A bucket's entry. - Complexity: O(1); a write copies at most one page (and the list of
    /// pages) when they are shared with another snapshot.
    @inlinable subscript(bucket: Int) -> UInt64 {
        get { pages[bucket &>> Self.pageBits][bucket & (Self.pageSize &- 1)] }
        set { pages[bucket &>> Self.pageBits][bucket & (Self.pageSize &- 1)] = newValue }
    }

    /// The buckets as one flat table, leaving the index without pages until ``putFlat(_:)``
    /// (a bulk write: one pass over the table instead of a page lookup per entry).
    @inlinable mutating func takeFlat() -> [UInt64] {
        let taken = pages
        pages = []
        // One page (a table of up to 512 buckets): itself, and then its only reference.
        return taken.count == 1 ? taken[0] : Array(taken.joined())
    }

    /// Puts back the table ``takeFlat()`` took, in pages.
    @inlinable mutating func putFlat(_ table: [UInt64]) {
        let size = Swift.min(table.count, Self.pageSize)
        pages = table.count <= size ? [table] : stride(from: 0, to: table.count, by: size).map { Array(table[$0..<($0 &+ size)]) }
    }

    /// Every bucket's entry, in bucket order (0 for an empty one).
    @inlinable var entries: FlattenSequence<[[UInt64]]> { pages.joined() }

    @inlinable static func entry(tag: UInt32, slot: Int) -> UInt64 {
        UInt64(tag) &<< 32 | UInt64(truncatingIfNeeded: slot &+ 1) & 0xFFFF_FFFF
    }
    @inlinable static func tag(ofEntry entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry &>> 32) }
    @inlinable static func slot(ofEntry entry: UInt64) -> Int { Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1 }
    /// A tag's home bucket in a table of 2^bits buckets: the tag's top bits.
    @inlinable static func home(ofTag tag: UInt32, bits: Int) -> Int {
        bits == 0 ? 0 : Int(truncatingIfNeeded: tag &>> UInt32(truncatingIfNeeded: 32 &- bits))
    }

    /// Makes room for `capacity` entries at a load of at most one half. Rehashes from tags.
    @inlinable mutating func reserve(_ capacity: Int) {
        if let table = grownFlat(for: capacity) { putFlat(table) }
    }

    /// When the index has no room for `capacity` entries at a load of at most one half: its
    /// entries rehashed (from their tags) into a flat table big enough, which the index then
    /// lacks until ``putFlat(_:)`` (its `bits` are the new table's). `nil` when it has room.
    @inlinable mutating func grownFlat(for capacity: Int) -> [UInt64]? {
        guard capacity &* 2 > bucketCount else { return nil }
        var newBits = Swift.max(bits, 3)
        while 1 &<< newBits < capacity &* 2 { newBits &+= 1 }
        var table = [UInt64](repeating: 0, count: 1 &<< newBits)
        let mask = table.count &- 1
        table.withUnsafeMutableBufferPointer { table in
            for page in pages {
                for entry in page where entry != 0 {
                    var bucket = Self.home(ofTag: Self.tag(ofEntry: entry), bits: newBits)
                    while table[bucket] != 0 { bucket = (bucket &+ 1) & mask }
                    table[bucket] = entry
                }
            }
        }
        pages = []
        bits = newBits
        return table
    }

    /// Adds an entry for an item known not to be indexed yet.
    @inlinable mutating func insertUnchecked(tag: UInt32, slot: Int) {
        reserve(count &+ 1)
        let mask = bucketCount &- 1
        var bucket = Self.home(ofTag: tag, bits: bits)
        while self[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        self[bucket] = Self.entry(tag: tag, slot: slot)
        count &+= 1
    }

    /// Empties a bucket, shifting later entries of its run back (no tombstones).
    @inlinable mutating func remove(atBucket removed: Int) {
        let mask = bucketCount &- 1, bits = self.bits
        var hole = removed, next = removed
        while true {
            next = (next &+ 1) & mask
            let entry = self[next]
            if entry == 0 { break }
            let home = Self.home(ofTag: Self.tag(ofEntry: entry), bits: bits)
            // The entry may fill the hole if the hole lies between its home and where it is.
            if (next &- home) & mask >= (next &- hole) & mask {
                self[hole] = entry
                hole = next
            }
        }
        self[hole] = 0
        count &-= 1
    }

    /// The bucket holding exactly this entry, or `nil`.
    @inlinable func bucket(ofEntry wanted: UInt64) -> Int? {
        guard count > 0 else { return nil }
        let mask = bucketCount &- 1
        var bucket = Self.home(ofTag: Self.tag(ofEntry: wanted), bits: bits)
        while true {
            let entry = self[bucket]
            if entry == 0 { return nil }
            if entry == wanted { return bucket }
            bucket = (bucket &+ 1) & mask
        }
    }
}

/// A table of index buckets the bulk append writes through: the index's pages, or a flat table.
@usableFromInline
protocol BucketTable {
    subscript(bucket: Int) -> UInt64 { get set }
}

extension ItemIndex: BucketTable {}
extension UnsafeMutableBufferPointer: BucketTable where Element == UInt64 {}

extension Snapshot {
    /// The high 32 bits of an item's hash value (the process-wide seed, so snapshots agree).
    @inlinable static func tag(of item: ItemID) -> UInt32 {
        let hash = UInt64(truncatingIfNeeded: UInt(bitPattern: item.hashValue))
        return UInt32(truncatingIfNeeded: Int.bitWidth == 64 ? hash &>> 32 : hash)
    }

    /// The offset of `item` (whose tag is `tag`) among the first `limit` items of a chunk,
    /// trying `hint` first, then comparing tags before identifiers outward from the hint (a
    /// stale hint is off by the items inserted or removed before it since it was set), at most
    /// `window` places either side.
    @inlinable static func offset(of item: ItemID, tag: UInt32, in chunk: Chunk, hint: Int, limit: Int, window: Int = .max) -> Int? {
        chunk.items.withUnsafeBufferPointer { items in
            let end = Swift.min(limit, items.count)
            if hint < end && items[hint] == item { return hint }
            return chunk.tags.withUnsafeBufferPointer { tags in
                let center = Swift.min(hint, end)
                let reach = Swift.min(window, Swift.max(center, end &- 1 &- center))
                var distance = 1
                while distance <= reach {
                    let below = center &- distance, above = center &+ distance
                    if below >= 0 && tags[below] == tag && items[below] == item { return below }
                    if above < end && tags[above] == tag && items[above] == item { return above }
                    distance &+= 1
                }
                return nil
            }
        }
    }

    /// Where the index puts `item`: its entry's bucket, and the item's chunk and exact offset.
    /// - Complexity: Expected O(1) probes, each confirmed by the offset hint, or a scan of one
    ///   chunk when the hint is stale.
    @inlinable func indexFind(_ item: ItemID) -> (bucket: Int, chunkID: Int, offset: Int)? {
        guard index.count > 0 else { return nil }
        let tag = Self.tag(of: item)
        let mask = index.bucketCount &- 1
        var bucket = ItemIndex.home(ofTag: tag, bits: index.bits)
        while true {
            let entry = index[bucket]
            if entry == 0 { return nil }
            if ItemIndex.tag(ofEntry: entry) == tag {
                let slot = ItemIndex.slot(ofEntry: entry)
                let chunkID = Self.chunkID(ofSlot: slot)
                if chunkID < chunks.count,
                   let offset = Self.offset(of: item, tag: tag, in: chunks[chunkID], hint: Self.offsetHint(ofSlot: slot), limit: .max) {
                    return (bucket, chunkID, offset)
                }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Whether the snapshot holds `item`. - Complexity: as ``indexFind(_:)``.
    @inlinable func isIndexed(_ item: ItemID) -> Bool { indexFind(item) != nil }

    /// Indexes an item already stored at `slot` that is known to be new.
    @inlinable mutating func indexInsertNew(tag: UInt32, slot: Int) {
        index.insertUnchecked(tag: tag, slot: slot)
    }

    /// Removes an item's entry; returns the chunk it was indexed to, or `nil` if not indexed.
    /// The item must still be in its chunk.
    @inlinable mutating func indexRemove(_ item: ItemID) -> Int? {
        guard let (bucket, chunkID, _) = indexFind(item) else { return nil }
        index.remove(atBucket: bucket)
        return chunkID
    }

    /// Points the entry of an item of chunk `from` at `slot` (the item moved to another chunk).
    /// Any entry with the item's tag and chunk will do: they are interchangeable.
    @inlinable mutating func indexRelocate(tag: UInt32, from chunkID: Int, to slot: Int) {
        if index.count > 0 {
            let mask = index.bucketCount &- 1
            var bucket = ItemIndex.home(ofTag: tag, bits: index.bits)
            while index[bucket] != 0 {
                let entry = index[bucket]
                if ItemIndex.tag(ofEntry: entry) == tag && Self.chunkID(ofSlot: ItemIndex.slot(ofEntry: entry)) == chunkID {
                    index[bucket] = ItemIndex.entry(tag: tag, slot: slot)
                    return
                }
                bucket = (bucket &+ 1) & mask
            }
        }
        index.insertUnchecked(tag: tag, slot: slot)  // not indexed (a caller's bug): index it now
    }

    /// Invariant support: whether an entry with `item`'s tag names this chunk.
    @inlinable func _hasEntry(_ item: ItemID, inChunk chunkID: Int) -> Bool {
        guard index.count > 0 else { return false }
        let tag = Self.tag(of: item)
        let mask = index.bucketCount &- 1
        var bucket = ItemIndex.home(ofTag: tag, bits: index.bits)
        while index[bucket] != 0 {
            let entry = index[bucket]
            if ItemIndex.tag(ofEntry: entry) == tag && Self.chunkID(ofSlot: ItemIndex.slot(ofEntry: entry)) == chunkID { return true }
            bucket = (bucket &+ 1) & mask
        }
        return false
    }

    /// Test support: whether `item`'s entry names exactly this chunk and offset.
    @inlinable func _hasExactSlot(_ item: ItemID, chunk chunkID: Int, offset: Int) -> Bool {
        index.bucket(ofEntry: ItemIndex.entry(tag: Self.tag(of: item), slot: Self.slot(chunk: chunkID, offset: offset))) != nil
    }
}
