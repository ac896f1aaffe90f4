// Keeping the selection through an apply: by identifier, so a move is nothing to do.

extension ItemSelection {
    /// Brings the selection up to date with an apply of the list's data source.
    ///
    /// - An item that **moves** (within or across sections) stays selected: the selection is kept
    ///   by identifier, which is the point of this type.
    /// - An item that is **deleted** leaves the selection.
    /// - An item marked with `reconfigureItems` stays selected: reconfiguring updates "the data
    ///   for the items …, preserving the existing cells" (NSDiffableDataSourceSnapshot).
    /// - An item marked with `reloadItems`, or in a section marked with `reloadSections`, is
    ///   **deselected**: UITableView's `reloadRows(at:with:)` is observed to deselect the rows it
    ///   reloads (it is not documented), and a reload says the item is to be shown afresh, as new.
    /// - A **reset** (`applySnapshotUsingReloadData`, ``DataSourceUpdate/Kind/reloadData``) follows
    ///   the same rules: items that still exist stay selected. UIKit's selection is a set of index
    ///   paths that a reload of all data leaves meaningless; this one is a set of identifiers,
    ///   which a reset does not change, and a reset is how a list is shown afresh (a reconnecting
    ///   browser, a restored server, a replaced data set) rather than a statement about what the
    ///   user chose. Reload marks in the reset's snapshot still deselect their items.
    /// - A user's **reorder** (``DataSourceUpdate/Kind/reorder``) moves items: they stay selected.
    ///
    /// The anchor of range selection is forgotten when its item leaves the list. The deselections
    /// are not the user's: no `didDeselect` is due. Give the selection every update, in order (a
    /// data source observer does): the deleted items are read from the update's changeset.
    ///
    /// ```swift
    /// dataSource.addObserver { update in
    ///     let change = selection.withLock { $0.reconcile(with: update) }
    ///     render(deselected: change.deselected)
    /// }
    /// ```
    /// - Complexity: O(1) when nothing is selected; otherwise expected O(min(d, n) + r) for d
    ///   deleted items, n selected items and r reloaded items, plus O(n) when selected items leave
    ///   or sections were reloaded. Never the size of the list.
    @discardableResult
    public mutating func reconcile<SectionID>(with update: DataSourceUpdate<SectionID, ItemIdentifier>) -> SelectionChange<ItemIdentifier> {
        let changes = update.changeset
        var leaving = Set<ItemIdentifier>()
        if !selected.isEmpty {
            if changes.itemDeletions.count < selected.count {
                for deletion in changes.itemDeletions where selected.contains(deletion.id) { leaving.insert(deletion.id) }
            } else {
                leaving = missing(from: update.snapshot)
            }
            for reload in changes.itemReloads where selected.contains(reload.id) { leaving.insert(reload.id) }
            if !changes.sectionReloads.isEmpty {
                let reloadedSections = Set(changes.sectionReloads.map(\.id))
                for item in selected {
                    if let section = update.snapshot.sectionIdentifier(containingItem: item), reloadedSections.contains(section) {
                        leaving.insert(item)
                    }
                }
            }
        }
        return deselect(leaving, keepingAnchorIn: update.snapshot)
    }

    /// Brings a selection up to date with a snapshot alone, when there is no update to read (a
    /// selection restored from storage, or decoded from a request, against the list as it is now):
    /// items the snapshot does not contain leave the selection, and the others stay. No
    /// `didDeselect` is due.
    /// - Complexity: expected O(n) for n selected items.
    @discardableResult
    public mutating func reconcile<SectionID>(with snapshot: Snapshot<SectionID, ItemIdentifier>) -> SelectionChange<ItemIdentifier> {
        deselect(missing(from: snapshot), keepingAnchorIn: snapshot)
    }

    /// The selected items the snapshot does not contain.
    private func missing<SectionID>(from snapshot: Snapshot<SectionID, ItemIdentifier>) -> Set<ItemIdentifier> {
        var missing = Set<ItemIdentifier>()
        for item in selected where !snapshot.contains(item: item) { missing.insert(item) }
        return missing
    }

    /// Removes `leaving` from the selection (reported in selection order), and forgets the anchor
    /// and the extent of range selection when their items are no longer in the snapshot.
    private mutating func deselect<SectionID>(_ leaving: Set<ItemIdentifier>,
                                              keepingAnchorIn snapshot: Snapshot<SectionID, ItemIdentifier>) -> SelectionChange<ItemIdentifier> {
        if let anchor, !snapshot.contains(item: anchor) { self.anchor = nil; extent = nil }
        if let extent, !snapshot.contains(item: extent) { self.extent = nil }
        guard !leaving.isEmpty else { return SelectionChange(isUserInteraction: false) }
        let deselected = selected.elements.filter { leaving.contains($0) }
        selected.removeAll { leaving.contains($0) }
        return SelectionChange(deselected: deselected, isUserInteraction: false)
    }
}
