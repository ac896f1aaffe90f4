import OrderedCollections

/// The state of a list at one moment: its sections, in order, and the items of each, in order.
///
/// `Snapshot` re-creates UIKit's `NSDiffableDataSourceSnapshot` as a Swift value type.
/// Sections and items are named by identifiers, never by index: build the state you
/// want, hand it to a ``DiffableDataSource``, and the data source works out what changed.
///
/// ```swift
/// var snapshot = Snapshot<String, Int>()
/// try snapshot.appendSections(["main"])
/// try snapshot.appendItems([1, 2, 3])          // to the last section
/// try snapshot.moveItem(3, beforeItem: 1)      // [3, 1, 2]
/// snapshot.indexOfItem(1)                      // 1
/// ```
///
/// # Identity
/// An identifier is the whole identity of a section or an item: it must be unique in the
/// snapshot (an item may not appear in two sections). Give items a stable id (a `UUID`, a
/// database key) rather than their whole value, so that a changed property is an update
/// (``reconfigureItems(_:)``), not a delete and an insert.
///
/// # Errors instead of traps
/// Where UIKit traps (a duplicate identifier, an unknown item, appending with no section,
/// moving an item relative to itself) the mutation throws a ``SnapshotError`` naming the
/// identifiers, and leaves the snapshot exactly as it was.
///
/// # Cost
/// Lookups by identifier (``indexOfItem(_:)``, ``sectionIdentifier(containingItem:)``,
/// ``contains(item:)``) are expected O(1) plus a scan of one bounded chunk; appending k items
/// is O(k). Items are stored in chunks of at most ``Snapshot/maximumChunkCount`` per section,
/// so inserting, deleting or moving one item in the middle of a 100,000-item section touches
/// one chunk, never the whole section.
///
/// # Equality
/// Two snapshots are equal when they have the same sections in the same order with the same
/// items in the same order. Reload and reconfigure marks are instructions for the next apply,
/// not content, and do not take part.
public struct Snapshot<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    /// A run of consecutive items of one section.
    @usableFromInline
    struct Chunk: Sendable {
        @usableFromInline var items: [ItemID]
        /// Each item's index tag (see Snapshot+Index.swift), in step with `items`: a chunk is
        /// searched by tag before any identifier is compared, and the diff reads a new item's
        /// tag here instead of hashing it again.
        @usableFromInline var tags: [UInt32]
        /// The section owning this chunk; `nil` marks a free slot in `chunks`.
        @usableFromInline var section: SectionID?
        @inlinable init(items: [ItemID], tags: [UInt32], section: SectionID?) {
            self.items = items; self.tags = tags; self.section = section
        }
    }

    /// The chunks of one section, in order.
    @usableFromInline
    struct SectionStorage: Sendable {
        @usableFromInline var chunkIDs: [Int] = []
        @usableFromInline var count = 0
        @inlinable init() {}
    }

    /// A chunk is split in two when it grows past this many items.
    @inlinable public static var maximumChunkCount: Int { 1024 }
    /// Appends fill chunks up to this many items, leaving room for later inserts.
    @inlinable static var appendChunkCount: Int { 512 }

    /// Sections in order, each with its chunk list.
    @usableFromInline var sections: OrderedDictionary<SectionID, SectionStorage> = [:]
    /// Chunk storage, indexed by chunk id; freed slots are reused.
    @usableFromInline var chunks: [Chunk] = []
    @usableFromInline var freeChunkIDs: [Int] = []
    /// Where each item is: its chunk and a hint of its offset in that chunk (see
    /// Snapshot+Index.swift and ``slot(chunk:offset:)``). The chunk is exact; the hint is exact
    /// after appends and splits, while an insert or removal in the middle of a chunk leaves later
    /// items' hints stale, and readers verify a hint before trusting it (falling back to a scan
    /// of that one chunk). Slots take 32 bits: up to 2^21 chunks, about a billion items.
    @usableFromInline var index = ItemIndex()

    /// Packs a chunk id and an offset hint (chunks never exceed 1,024 items, so 11 bits hold the offset).
    @inlinable static func slot(chunk: Int, offset: Int) -> Int { chunk &<< 11 | (offset & 2047) }
    @inlinable static func chunkID(ofSlot slot: Int) -> Int { slot &>> 11 }
    @inlinable static func offsetHint(ofSlot slot: Int) -> Int { slot & 2047 }

    @usableFromInline var reloadedItems: OrderedSet<ItemID> = []
    @usableFromInline var reconfiguredItems: OrderedSet<ItemID> = []
    @usableFromInline var reloadedSections: OrderedSet<SectionID> = []
    /// Which items were touched since this snapshot was taken from a data source (see
    /// Snapshot+Journal.swift): lets an apply find its changeset without a full diff.
    @usableFromInline var journal = Journal()

    /// An empty snapshot.
    @inlinable public init() {}
}
