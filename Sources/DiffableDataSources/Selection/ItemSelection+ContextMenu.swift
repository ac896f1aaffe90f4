/// Which items a context menu acts on, as UICollectionView decides the index paths it hands
/// `collectionView(_:contextMenuConfigurationForItemsAt:point:)`.
extension ItemSelection {
    /// The items a context menu opened at `item` acts on: every selected item when `item` is
    /// one of them (a menu on a multiple selection is for all of it), `item` alone when it is
    /// not selected, and none when the menu opened on empty space (`item` is `nil`). The
    /// items are in `snapshot`'s order; a selected item the snapshot lacks is left out.
    ///
    /// ```swift
    /// selection.selectedItems                          // [c, a]
    /// selection.contextMenuItems(at: a, in: snapshot)  // [a, c]: the whole selection
    /// selection.contextMenuItems(at: b, in: snapshot)  // [b]
    /// selection.contextMenuItems(at: nil, in: snapshot) // []
    /// ```
    /// - Complexity: O(s log s) for s selected items when `item` is selected, else O(1).
    public func contextMenuItems<SectionID: Hashable & Sendable>(at item: ItemIdentifier?,
                                                                 in snapshot: Snapshot<SectionID, ItemIdentifier>) -> [ItemIdentifier] {
        guard let item else { return [] }
        guard isSelected(item) else { return [item] }
        let positioned = selectedItems.compactMap { selected in snapshot.indexOfItem(selected).map { (selected, $0) } }
        return positioned.sorted { $0.1 < $1.1 }.map(\.0)
    }
}
