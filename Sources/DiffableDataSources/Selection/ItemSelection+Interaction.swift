// What the user does: a tap (or a click, or Return on a focused item) and a Shift-click (or
// Shift+arrow). These ask the delegate's `shouldSelect` / `shouldDeselect` and report a change
// for `didSelect` / `didDeselect`.

extension ItemSelection {
    /// The user tapped an item: UICollectionView's rules for the current settings.
    ///
    /// - Selection not allowed (``SelectionSettings/allowsSelectionNow`` is `false`, as while
    ///   editing with the default settings): nothing is selected.
    /// - Single selection: the item becomes the selected item (tapping B after A deselects A and
    ///   selects B). Tapping the selected item again keeps it selected: `allowsMultipleSelection`'s
    ///   documentation gives the deselecting second tap to multiple selection only.
    /// - Multiple selection: a tap adds an unselected item and removes a selected one ("Tapping the
    ///   cell again removes it from the selection", `allowsMultipleSelection`), so A, B, A leaves B.
    ///
    /// `shouldSelect` and `shouldDeselect` are the delegate's `collectionView(_:shouldSelectItemAt:)`
    /// and `collectionView(_:shouldDeselectItemAt:)`: `shouldSelect` is asked for the tapped item
    /// (also when it is already selected in single selection, as UIKit asks again),
    /// `shouldDeselect` for the item a tap would deselect. In single selection that includes the
    /// item being replaced: UIKit does not document whether it asks then, and asking lets a
    /// delegate keep an item selected without ever breaking "at most one". A veto leaves the
    /// selection exactly as it was.
    ///
    /// # Primary action
    /// UIKit calls `collectionView(_:performPrimaryActionForItemAt:)` "when a person selects a single
    /// cell without extending an existing selection", "regardless of whether the … selection state
    /// changes", also when the delegate refused the selection (UITableView's documentation: that is
    /// how a non-selectable, button-style row gets its action), and by default not in editing mode
    /// (`canPerformPrimaryActionForItemAt`). So ``SelectionChange/primaryActionItem`` is the tapped
    /// item out of editing mode, except for a multiple-selection tap that deselects or that adds to
    /// a selection already there. It is also set while selection is not allowed at all, since the
    /// documentation ties the primary action to editing only.
    ///
    /// ```swift
    /// let change = try selection.tap(k2, in: snapshot, shouldSelect: { !locked.contains($0) })
    /// ```
    /// - Throws: ``SelectionError/unknownItems(_:)`` when the snapshot does not contain the item
    ///   (a stale or forged tap); the selection is left as it was.
    /// - Complexity: expected O(1), plus O(n) for n selected items when a multiple-selection tap
    ///   deselects (the order is kept).
    @discardableResult
    public mutating func tap<SectionID>(_ item: ItemIdentifier, in snapshot: Snapshot<SectionID, ItemIdentifier>,
                                        shouldSelect: (ItemIdentifier) -> Bool = { _ in true },
                                        shouldDeselect: (ItemIdentifier) -> Bool = { _ in true })
        throws(SelectionError) -> SelectionChange<ItemIdentifier> {
        guard snapshot.contains(item: item) else { throw .unknownItems(of: [item]) }
        var change = SelectionChange<ItemIdentifier>(isUserInteraction: true)
        let primaryAction = settings.isEditing ? nil : item
        guard settings.allowsSelectionNow else {
            change.primaryActionItem = primaryAction
            return change
        }
        if settings.allowsMultipleSelectionNow {
            if selected.contains(item) {
                guard shouldDeselect(item) else { return change }
                selected.remove(item)
                change.deselected = [item]
            } else {
                if selected.isEmpty { change.primaryActionItem = primaryAction }
                guard shouldSelect(item) else { return change }
                selected.append(item)
                change.selected = [item]
            }
        } else {
            change.primaryActionItem = primaryAction
            guard shouldSelect(item) else { return change }
            let replaced = selected.elements.filter { $0 != item }
            guard replaced.allSatisfy(shouldDeselect) else { return change }
            change.deselected = removeAll(except: item)
            if selected.append(item).inserted { change.selected = [item] }
        }
        anchor = item
        extent = nil
        return change
    }

    /// The user Shift-clicked an item (or pressed Shift+arrow onto it): in multiple selection,
    /// selects the items from the anchor (the item last tapped or selected by code) to this one,
    /// in snapshot order, replacing the range the previous Shift-click from the same anchor
    /// selected, so that Shift+↓ Shift+↓ Shift+↑ leaves two items, as desktop lists behave (UIKit
    /// documents no range semantics of its own). Items of the old range outside the new one are
    /// deselected; items selected otherwise stay. Without an anchor in the list, the item becomes
    /// the anchor and is selected.
    ///
    /// `shouldSelect` and `shouldDeselect` are asked for each item the range would change; a
    /// vetoed item keeps its state while the rest of the range changes. Newly selected items are
    /// reported in snapshot order. No primary action is due (the range extends a selection).
    ///
    /// Where multiple selection is not in effect, a Shift-click is a plain
    /// ``tap(_:in:shouldSelect:shouldDeselect:)``.
    ///
    /// ```swift
    /// try selection.tap(b, in: snapshot)            // anchor b
    /// try selection.extend(to: d, in: snapshot)     // b, c, d
    /// try selection.extend(to: c, in: snapshot)     // b, c (d deselected)
    /// ```
    /// - Throws: ``SelectionError/unknownItems(_:)`` when the snapshot does not contain the item;
    ///   the selection is left as it was.
    /// - Complexity: O(items of the sections the old and new ranges span + n) for n selected items.
    @discardableResult
    public mutating func extend<SectionID>(to item: ItemIdentifier, in snapshot: Snapshot<SectionID, ItemIdentifier>,
                                           shouldSelect: (ItemIdentifier) -> Bool = { _ in true },
                                           shouldDeselect: (ItemIdentifier) -> Bool = { _ in true })
        throws(SelectionError) -> SelectionChange<ItemIdentifier> {
        guard snapshot.contains(item: item) else { throw .unknownItems(of: [item]) }
        guard settings.allowsMultipleSelectionNow else {
            return try tap(item, in: snapshot, shouldSelect: shouldSelect, shouldDeselect: shouldDeselect)
        }
        let start = anchor.flatMap { snapshot.contains(item: $0) ? $0 : nil }
        let previousRange = start.flatMap { start in extent.map { snapshot.items(between: start, and: $0) } } ?? []
        let range = snapshot.items(between: start ?? item, and: item)
        let inRange = Set(range)
        var change = SelectionChange<ItemIdentifier>(isUserInteraction: true)
        change.deselected = previousRange.filter { !inRange.contains($0) && selected.contains($0) && shouldDeselect($0) }
        if !change.deselected.isEmpty {
            let leaving = Set(change.deselected)
            selected.removeAll { leaving.contains($0) }
        }
        for member in range where !selected.contains(member) && shouldSelect(member) {
            selected.append(member)
            change.selected.append(member)
        }
        anchor = start ?? item
        extent = item
        return change
    }

    /// The keyboard focus moved onto an item. Where selection follows focus
    /// (``SelectionSettings/selectionFollowsFocusNow``) it is a single-selection tap without the
    /// primary action: the item replaces the selection, asking `shouldSelect` and
    /// `shouldDeselect` as a tap does (a veto leaves the selection as it was and the focus moves
    /// alone). Elsewhere the focus moves alone: nothing changes.
    ///
    /// ```swift
    /// var selection = ItemSelection<String>(settings: SelectionSettings(selectionFollowsFocus: true))
    /// try selection.focus("k2", in: snapshot)  // selects k2; change.primaryActionItem == nil
    /// ```
    /// - Throws: ``SelectionError/unknownItems(_:)`` when the snapshot does not contain the item;
    ///   the selection is left as it was.
    /// - Complexity: expected O(1).
    @discardableResult
    public mutating func focus<SectionID>(_ item: ItemIdentifier, in snapshot: Snapshot<SectionID, ItemIdentifier>,
                                          shouldSelect: (ItemIdentifier) -> Bool = { _ in true },
                                          shouldDeselect: (ItemIdentifier) -> Bool = { _ in true })
        throws(SelectionError) -> SelectionChange<ItemIdentifier> {
        guard snapshot.contains(item: item) else { throw .unknownItems(of: [item]) }
        guard settings.selectionFollowsFocusNow else { return SelectionChange(isUserInteraction: true) }
        var change = try tap(item, in: snapshot, shouldSelect: shouldSelect, shouldDeselect: shouldDeselect)
        change.primaryActionItem = nil
        return change
    }
}
