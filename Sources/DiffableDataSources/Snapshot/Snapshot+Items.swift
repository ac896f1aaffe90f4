import OrderedCollections

// Adding, removing, moving, reloading and reconfiguring items.

extension Snapshot {
    /// Adds items at the end of a section, or of the last section when `section` is `nil`.
    ///
    /// ```swift
    /// try snapshot.appendItems(mountains.map(\.id), toSection: .main)
    /// ```
    /// - Throws: ``SnapshotError/noSectionToAppendTo`` when there is no section,
    ///   ``SnapshotError/unknownSections(_:)`` for an unknown section, and
    ///   ``SnapshotError/duplicateItems(_:)`` for identifiers already present or repeated.
    /// - Complexity: O(k) for k items, about one hash insertion each.
    @inlinable public mutating func appendItems(_ identifiers: [ItemID], toSection section: SectionID? = nil) throws(SnapshotError) {
        try appendNewItems(identifiers, to: appendTarget(section))
    }

    /// Adds the items of any sequence at the end of a section, or of the last section when
    /// `section` is `nil`, without building an intermediate array:
    ///
    /// ```swift
    /// try snapshot.appendItems(mountains.lazy.map(\.id), toSection: .main)
    /// ```
    /// The sequence is iterated once. It throws the same errors as the array form, and a
    /// throwing call leaves the snapshot exactly as it was.
    /// - Complexity: O(k) for k items, about one hash insertion each.
    @inlinable public mutating func appendItems<Identifiers: Sequence<ItemID>>(_ identifiers: Identifiers, toSection section: SectionID? = nil) throws(SnapshotError) {
        try appendNewItems(identifiers, to: appendTarget(section))
    }

    /// The section an append goes to: `section` if it exists, else the last one.
    @inlinable func appendTarget(_ section: SectionID?) throws(SnapshotError) -> SectionID {
        if let section {
            guard sections[section] != nil else { throw .unknownSections(of: [section]) }
            return section
        }
        guard let last = sections.keys.last else { throw .noSectionToAppendTo }
        return last
    }

    /// Inserts items, in order, before an existing item (in that item's section).
    /// - Throws: ``SnapshotError`` if `beforeItem` is unknown or among the new items, or a new
    ///   identifier is a duplicate.
    /// - Complexity: O(k + one chunk).
    @inlinable public mutating func insertItems(_ identifiers: [ItemID], beforeItem: ItemID) throws(SnapshotError) {
        try insertItems(identifiers, relativeTo: beforeItem, after: false)
    }

    /// Inserts items, in order, after an existing item (in that item's section).
    /// - Throws: ``SnapshotError`` as ``insertItems(_:beforeItem:)``.
    /// - Complexity: O(k + one chunk).
    @inlinable public mutating func insertItems(_ identifiers: [ItemID], afterItem: ItemID) throws(SnapshotError) {
        try insertItems(identifiers, relativeTo: afterItem, after: true)
    }

    @inlinable mutating func insertItems(_ identifiers: [ItemID], relativeTo anchor: ItemID, after: Bool) throws(SnapshotError) {
        if identifiers.contains(anchor) { throw .itemRelativeToItself(String(describing: anchor)) }
        guard var location = location(of: anchor) else { throw .unknownItems(of: [anchor]) }
        try validateNewItems(identifiers)
        if after { location.offset += 1 }
        storeInserting(identifiers, at: location)
    }

    /// Removes items from the snapshot.
    /// - Throws: ``SnapshotError/unknownItems(_:)`` naming the items not in the snapshot.
    /// - Complexity: O(k) plus one pass over each chunk that loses items.
    @inlinable public mutating func deleteItems(_ identifiers: [ItemID]) throws(SnapshotError) {
        try validateKnownItems(identifiers)
        storeRemoving(identifiers.count > 1 ? Array(OrderedSet(identifiers)) : identifiers)
    }

    /// Removes every item and every section, as UIKit does.
    /// - Complexity: O(1) (the old storage is released).
    @inlinable public mutating func deleteAllItems() {
        self = Snapshot()
    }

    /// Moves an item before another item, which may be in another section.
    /// - Throws: ``SnapshotError`` if either item is unknown or they are the same.
    /// - Complexity: O(two chunks).
    @inlinable public mutating func moveItem(_ identifier: ItemID, beforeItem: ItemID) throws(SnapshotError) {
        try moveItem(identifier, relativeTo: beforeItem, after: false)
    }

    /// Moves an item after another item, which may be in another section.
    /// - Throws: ``SnapshotError`` as ``moveItem(_:beforeItem:)``.
    /// - Complexity: O(two chunks).
    @inlinable public mutating func moveItem(_ identifier: ItemID, afterItem: ItemID) throws(SnapshotError) {
        try moveItem(identifier, relativeTo: afterItem, after: true)
    }

    @inlinable mutating func moveItem(_ identifier: ItemID, relativeTo anchor: ItemID, after: Bool) throws(SnapshotError) {
        if identifier == anchor { throw .itemRelativeToItself(String(describing: identifier)) }
        try validateKnownItems([identifier, anchor])
        // Keep the item's marks: a move is not a delete.
        let wasReloaded = reloadedItems.contains(identifier)
        let wasReconfigured = reconfiguredItems.contains(identifier)
        storeRemoving([identifier])
        guard var location = location(of: anchor) else { return }
        if after { location.offset += 1 }
        storeInserting([identifier], at: location)
        if wasReloaded { reloadedItems.append(identifier) }
        if wasReconfigured { reconfiguredItems.append(identifier) }
    }

    /// Marks items to be reloaded (their cells re-created) by the next apply.
    /// - Throws: ``SnapshotError/unknownItems(_:)``.
    /// - Complexity: O(k).
    @inlinable public mutating func reloadItems(_ identifiers: [ItemID]) throws(SnapshotError) {
        try validateKnownItems(identifiers)
        reloadedItems.append(contentsOf: identifiers)
    }

    /// Marks items to be reconfigured (their existing cells updated in place) by the next apply.
    /// Cheaper than ``reloadItems(_:)``: use it when an item's content changed but not its kind.
    /// - Throws: ``SnapshotError/unknownItems(_:)``.
    /// - Complexity: O(k).
    @inlinable public mutating func reconfigureItems(_ identifiers: [ItemID]) throws(SnapshotError) {
        try validateKnownItems(identifiers)
        reconfiguredItems.append(contentsOf: identifiers)
    }
}
