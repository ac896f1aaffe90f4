/// One applied snapshot, as a ``DiffableDataSource`` hands it to its observers.
///
/// Updates arrive in `version` order, one per apply, each with the changeset from the
/// previous snapshot, so an observer can show the change (animated or not) without ever
/// asking the data source for anything else.
public struct DataSourceUpdate<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    /// How the snapshot was applied.
    public enum Kind: Sendable, Equatable {
        /// `apply(_:animatingDifferences:)` or a section snapshot apply: show the changeset.
        case differences
        /// `applySnapshotUsingReloadData(_:)`: discard what is shown and show the snapshot afresh.
        case reloadData
        /// A user's reorder, already shown by the interface that performed it.
        case reorder
    }

    /// Increases by one with every apply; the initial empty snapshot is version 0.
    public let version: Int
    /// The snapshot before this apply.
    public let previousSnapshot: Snapshot<SectionID, ItemID>
    /// The snapshot now current (reload and reconfigure marks cleared).
    public let snapshot: Snapshot<SectionID, ItemID>
    /// What changed, reloads and reconfigures included.
    public let changeset: Changeset<SectionID, ItemID>
    /// Whether the change should be animated.
    public let animatingDifferences: Bool
    /// How the snapshot was applied.
    public let kind: Kind
    /// The shared transition whose changeset this is, when the apply took its shortcut (see
    /// ``SnapshotTransition``): every data source that made the same transition got the same
    /// object, so an observer may cache what it derives from the changeset by its identity.
    public let transition: SnapshotTransition<SectionID, ItemID>?
}
