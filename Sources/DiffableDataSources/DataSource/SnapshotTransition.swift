import OrderedCollections

/// The change from one snapshot to another, diffed once, for any number of data sources to apply.
///
/// When many data sources hold the same snapshot and move to the same next one (the sessions
/// of a search over one catalog, each typing the same next letter), the diff is the same for all
/// of them. A transition computes it once. The data source's `apply(_:animatingDifferences:)`
/// that takes a transition hands its changeset to observers when the current snapshot *is*
/// `from`, and diffs as usual otherwise. Either way the data source ends up showing `to`, with a
/// changeset that turns what it showed into `to`: a transition is a shortcut, never a different
/// result.
///
/// ```swift
/// let step = SnapshotTransition(from: results["ka"], to: results["kan"])  // the diff runs here, once
/// for session in sessions { session.dataSource.apply(step) }              // no diff
/// ```
///
/// "Is `from`" means identical storage (``Snapshot/isIdentical(to:)``), checked in O(sections):
/// a snapshot a data source made current from `from` (or from a transition whose `to` was
/// `from`) shares it. An equal snapshot built separately is diffed, which is correct, only slower.
public final class SnapshotTransition<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    /// The snapshot the changeset starts from.
    public let from: Snapshot<SectionID, ItemID>
    /// The snapshot the changeset leads to.
    public let to: Snapshot<SectionID, ItemID>
    /// `Changeset(from: from, to: to)`, reloads and reconfigures of `to` included.
    public let changeset: Changeset<SectionID, ItemID>

    /// Diffs `from` and `to` (the one O(n) step; applying the transition is then O(sections)).
    @inlinable public convenience init(from: Snapshot<SectionID, ItemID>, to: Snapshot<SectionID, ItemID>) {
        self.init(from: from, to: to, changeset: Changeset(from: from, to: to))
    }

    @usableFromInline init(from: Snapshot<SectionID, ItemID>, to: Snapshot<SectionID, ItemID>, changeset: Changeset<SectionID, ItemID>) {
        self.from = from
        self.to = to
        self.changeset = changeset
    }

    /// The number of inserted, deleted, moved, reloaded and reconfigured items and sections:
    /// what a cache of transitions can weigh them by.
    public var changeCount: Int {
        changeset.itemInsertions.count + changeset.itemDeletions.count + changeset.itemMoves.count
            + changeset.itemReloads.count + changeset.itemReconfigures.count
            + changeset.sectionInsertions.count + changeset.sectionDeletions.count + changeset.sectionMoves.count
            + changeset.sectionReloads.count
    }
}

extension Snapshot {
    /// Whether this snapshot shares its items' storage with `other` and orders it the same way:
    /// then both have the same sections and items in the same order (marks aside). `false` says
    /// nothing: equal snapshots built separately are not identical.
    /// - Complexity: O(sections + chunks), never O(items).
    ///
    /// Inlinable: a caller in another module (a live list's keystroke asks it twice) gets it
    /// specialized for its identifier types, without generic metadata lookups on each call.
    @inlinable public func isIdentical(to other: Snapshot) -> Bool {
        guard sections.count == other.sections.count, numberOfItems == other.numberOfItems,
              chunks.count == other.chunks.count else { return false }
        let sameChunks = chunks.withUnsafeBufferPointer { left in
            other.chunks.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
        guard sameChunks else { return false }
        let left = sections.values, right = other.sections.values
        for offset in 0..<left.count {
            guard sections.keys[offset] == other.sections.keys[offset], left[offset].count == right[offset].count,
                  left[offset].chunkIDs == right[offset].chunkIDs else { return false }
        }
        return true
    }
}
