// Selecting and deselecting by code: UIKit's `selectItem(at:animated:scrollPosition:)` and
// `deselectItem(at:animated:)`. Nothing here asks `shouldSelect` or reports `didSelect`.

extension ItemSelection {
    /// Selects an item, as UIKit's `selectItem(at:animated:scrollPosition:)`: in single selection
    /// it replaces the selected item (selecting B after A leaves B), in multiple selection it is
    /// added. It becomes the anchor of the next ``extend(to:in:shouldSelect:shouldDeselect:)``.
    ///
    /// As in UIKit, it has no effect while selection is not allowed
    /// (``SelectionSettings/allowsSelectionNow``), and no delegate method is due: the change's
    /// ``SelectionChange/isUserInteraction`` is `false`.
    ///
    /// ```swift
    /// try selection.selectItem(everest, in: snapshot)
    /// try selection.selectItem(k2, in: snapshot)        // single selection: [k2]
    /// ```
    /// - Throws: ``SelectionError/unknownItems(_:)`` when the snapshot does not contain the item
    ///   (UIKit traps on an index path outside the collection view).
    /// - Complexity: expected O(1) in multiple selection; O(1) plus the one item replaced in single.
    @discardableResult
    public mutating func selectItem<SectionID>(_ item: ItemIdentifier, in snapshot: Snapshot<SectionID, ItemIdentifier>)
        throws(SelectionError) -> SelectionChange<ItemIdentifier> {
        guard snapshot.contains(item: item) else { throw .unknownItems(of: [item]) }
        var change = SelectionChange<ItemIdentifier>(isUserInteraction: false)
        guard settings.allowsSelectionNow else { return change }
        if !settings.allowsMultipleSelectionNow { change.deselected = removeAll(except: item) }
        if selected.append(item).inserted { change.selected = [item] }
        anchor = item
        extent = nil
        return change
    }

    /// Adds items to the selection, in the order given: "add" semantics, which in a
    /// single-selection list may not leave more than one item selected.
    ///
    /// Has no effect while selection is not allowed, as ``selectItem(_:in:)``. Items already
    /// selected keep their place; the last one added becomes the anchor.
    ///
    /// ```swift
    /// try selection.selectItems([everest, k2], in: snapshot)   // multiple selection
    /// ```
    /// - Throws: ``SelectionError/unknownItems(_:)`` naming every item the snapshot does not
    ///   contain; ``SelectionError/multipleSelectionNotAllowed(item:alreadySelected:)`` when
    ///   multiple selection is not in effect and a second item would be selected. Either way the
    ///   selection is left as it was.
    /// - Complexity: expected O(k) for k items.
    @discardableResult
    public mutating func selectItems<SectionID>(_ items: some Sequence<ItemIdentifier>, in snapshot: Snapshot<SectionID, ItemIdentifier>)
        throws(SelectionError) -> SelectionChange<ItemIdentifier> {
        let items = Array(items)
        let unknown = items.filter { !snapshot.contains(item: $0) }
        guard unknown.isEmpty else { throw .unknownItems(of: unknown) }
        guard settings.allowsSelectionNow else { return SelectionChange(isUserInteraction: false) }
        var added: [ItemIdentifier] = []
        var seen = Set<ItemIdentifier>()
        for item in items where !selected.contains(item) && seen.insert(item).inserted { added.append(item) }
        if !settings.allowsMultipleSelectionNow, let first = selected.first ?? added.first, selected.count + added.count > 1 {
            throw .multipleSelectionNotAllowed(adding: selected.isEmpty ? added[1] : added[0], to: first)
        }
        selected.append(contentsOf: added)
        if let last = added.last { anchor = last; extent = nil }
        return SelectionChange(selected: added, isUserInteraction: false)
    }

    /// Deselects an item, as UIKit's `deselectItem(at:animated:)`; an item that is not selected
    /// (or not in the list) changes nothing. No delegate method is due.
    /// - Complexity: O(n) for n selected items (the order is kept).
    @discardableResult
    public mutating func deselectItem(_ item: ItemIdentifier) -> SelectionChange<ItemIdentifier> {
        guard selected.remove(item) != nil else { return SelectionChange(isUserInteraction: false) }
        return SelectionChange(deselected: [item], isUserInteraction: false)
    }

    /// Deselects every item and forgets the anchor of range selection. No delegate method is due.
    /// - Complexity: O(n) for n selected items.
    @discardableResult
    public mutating func deselectAll() -> SelectionChange<ItemIdentifier> {
        let deselected = selected.elements
        selected = []
        anchor = nil
        extent = nil
        return SelectionChange(deselected: deselected, isUserInteraction: false)
    }

    /// Selects every item of the snapshot, in snapshot order after those already selected, when
    /// multiple selection is in effect (``SelectionSettings/allowsMultipleSelectionNow``); has no
    /// effect otherwise, as AppKit's `NSCollectionView.selectAll(_:)` ("works only when …
    /// `allowsMultipleSelection` … true … Otherwise, this method quietly does nothing"). UIKit has
    /// no such method. No delegate method is due.
    /// - Complexity: O(n) for n items in the snapshot.
    @discardableResult
    public mutating func selectAll<SectionID>(in snapshot: Snapshot<SectionID, ItemIdentifier>) -> SelectionChange<ItemIdentifier> {
        guard settings.allowsMultipleSelectionNow else { return SelectionChange(isUserInteraction: false) }
        var added: [ItemIdentifier] = []
        for item in snapshot.itemIdentifiers where !selected.contains(item) {
            selected.append(item)
            added.append(item)
        }
        return SelectionChange(selected: added, isUserInteraction: false)
    }

    /// Removes every selected item but `kept`, and returns them in selection order.
    mutating func removeAll(except kept: ItemIdentifier) -> [ItemIdentifier] {
        let removed = selected.elements.filter { $0 != kept }
        if !removed.isEmpty { selected.removeAll { $0 != kept } }
        return removed
    }
}
