import OrderedCollections
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The difference between two snapshots, as a batch update would perform it.
///
/// Every change carries both the identifier (for consumers that key cells by id, like a
/// browser) and its position in the index spaces of a batch update: deletions, reloads and
/// the sources of moves in the **old** snapshot; insertions and the destinations of moves
/// in the **new** one.
///
/// ```swift
/// let changes = Changeset(from: old, to: new)
/// for move in changes.itemMoves { print(move.id, move.from, "→", move.to) }
/// try old.applying(changes) == new   // always true
/// ```
///
/// # Identity and minimal moves
/// An identifier present in both snapshots is never a deletion plus an insertion, even when
/// it changes section: it is a move. The items left in place within each surviving section
/// (and the sections left in place) form a longest increasing subsequence, so the number of
/// moves is the least possible: `[a, b, c] → [b, c, a]` is one move.
public struct Changeset<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    /// A section deleted (index in the old snapshot) or inserted (index in the new one).
    public struct SectionChange: Sendable, Hashable {
        public var id: SectionID
        public var index: Int
        @inlinable public init(id: SectionID, index: Int) { self.id = id; self.index = index }
    }

    /// A section that moved, or that was reloaded: its index before and after.
    public struct SectionMove: Sendable, Hashable {
        public var id: SectionID
        public var from: Int
        public var to: Int
        @inlinable public init(id: SectionID, from: Int, to: Int) { self.id = id; self.from = from; self.to = to }
    }

    /// An item deleted (path in the old snapshot) or inserted (path in the new one).
    public struct ItemChange: Sendable, Hashable {
        public var id: ItemID
        public var indexPath: IndexPath
        @inlinable public init(id: ItemID, indexPath: IndexPath) { self.id = id; self.indexPath = indexPath }
    }

    /// An item that moved, or that was reloaded or reconfigured: its path before and after.
    public struct ItemMove: Sendable, Hashable {
        public var id: ItemID
        public var from: IndexPath
        public var to: IndexPath
        @inlinable public init(id: ItemID, from: IndexPath, to: IndexPath) { self.id = id; self.from = from; self.to = to }
    }

    /// Sections removed, by ascending old index.
    public var sectionDeletions: [SectionChange] = []
    /// Sections added, by ascending new index.
    public var sectionInsertions: [SectionChange] = []
    /// Sections that moved, by ascending new index.
    public var sectionMoves: [SectionMove] = []
    /// Surviving sections marked with `reloadSections`.
    public var sectionReloads: [SectionMove] = []
    /// Items removed, by ascending old index path.
    public var itemDeletions: [ItemChange] = []
    /// Items added, by ascending new index path.
    public var itemInsertions: [ItemChange] = []
    /// Items that moved (within or across sections), by ascending new index path.
    public var itemMoves: [ItemMove] = []
    /// Surviving items marked with `reloadItems` (cells to re-create).
    public var itemReloads: [ItemMove] = []
    /// Surviving items marked with `reconfigureItems` (cells to update in place).
    public var itemReconfigures: [ItemMove] = []

    /// An empty changeset.
    @inlinable public init() {}

    /// Whether nothing changed at all.
    @inlinable public var isEmpty: Bool {
        sectionDeletions.isEmpty && sectionInsertions.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
            && itemDeletions.isEmpty && itemInsertions.isEmpty && itemMoves.isEmpty
            && itemReloads.isEmpty && itemReconfigures.isEmpty
    }

    /// Whether sections or items were inserted, deleted or moved (reloads aside).
    @inlinable public var hasStructuralChanges: Bool {
        !(sectionDeletions.isEmpty && sectionInsertions.isEmpty && sectionMoves.isEmpty
            && itemDeletions.isEmpty && itemInsertions.isEmpty && itemMoves.isEmpty)
    }
}

extension Changeset: CustomStringConvertible {
    @inlinable public var description: String {
        "Changeset(sections: -\(sectionDeletions.count) +\(sectionInsertions.count) ~\(sectionMoves.count) ↻\(sectionReloads.count); "
            + "items: -\(itemDeletions.count) +\(itemInsertions.count) ~\(itemMoves.count) ↻\(itemReloads.count) ✎\(itemReconfigures.count))"
    }
}
