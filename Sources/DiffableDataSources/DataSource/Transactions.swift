/// What a user's reorder did, as UIKit's `NSDiffableDataSourceTransaction` describes it.
public struct DataSourceTransaction<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    /// The snapshot before the reorder.
    public let initialSnapshot: Snapshot<SectionID, ItemID>
    /// The snapshot after it.
    public let finalSnapshot: Snapshot<SectionID, ItemID>
    /// The change of ``Snapshot/itemIdentifiers``, moves inferred.
    public let difference: CollectionDifference<ItemID>
    /// One transaction per section whose items changed.
    public let sectionTransactions: [SectionTransaction<SectionID, ItemID>]
}

/// What a reorder did to one section (UIKit's `NSDiffableDataSourceSectionTransaction`).
public struct SectionTransaction<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    public let sectionIdentifier: SectionID
    public let initialSnapshot: SectionSnapshot<ItemID>
    public let finalSnapshot: SectionSnapshot<ItemID>
    /// The change of the section's ``SectionSnapshot/items``.
    public let difference: CollectionDifference<ItemID>
}

/// Hooks for user reordering (UIKit's `reorderingHandlers`). Reordering is allowed only
/// when `canReorderItem` is set and answers `true`.
public struct ReorderingHandlers<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    public var canReorderItem: (@Sendable (ItemID) -> Bool)?
    public var willReorder: (@Sendable (DataSourceTransaction<SectionID, ItemID>) -> Void)?
    public var didReorder: (@Sendable (DataSourceTransaction<SectionID, ItemID>) -> Void)?
    public init() {}
}

/// Hooks for expanding and collapsing outline items (UIKit's `sectionSnapshotHandlers`).
public struct SectionSnapshotHandlers<ItemID: Hashable & Sendable>: Sendable {
    public var shouldExpandItem: (@Sendable (ItemID) -> Bool)?
    public var willExpandItem: (@Sendable (ItemID) -> Void)?
    public var shouldCollapseItem: (@Sendable (ItemID) -> Bool)?
    public var willCollapseItem: (@Sendable (ItemID) -> Void)?
    /// Given the parent being expanded and its current subtree (`snapshot(of:includingParent: true)`),
    /// returns the subtree to show: the place to load children lazily.
    public var snapshotForExpandingParent: (@Sendable (ItemID, SectionSnapshot<ItemID>) -> SectionSnapshot<ItemID>)?
    public init() {}
}
