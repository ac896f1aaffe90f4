// Changing what may be selected: the selection is trimmed to what the new settings allow.

extension ItemSelection {
    /// Replaces the settings and trims the selection to what they allow:
    ///
    /// - Selection no longer allowed now (``SelectionSettings/allowsSelectionNow`` turns `false`:
    ///   `allowsSelection` turned off, or editing mode entered with selection during editing off):
    ///   everything is deselected, and the anchor forgotten.
    /// - Multiple selection no longer in effect (``SelectionSettings/allowsMultipleSelectionNow``
    ///   turns `false`): the first selected item is kept, the others deselected. AppKit documents
    ///   this for `NSCollectionView.allowsMultipleSelection` ("reduces the current selection to
    ///   the first item in the selected group"); UIKit documents nothing, so its sibling is followed.
    ///   "First" is the earliest selected here: an ``ItemSelection`` keeps the order of selection,
    ///   and trimming needs no snapshot.
    /// - Otherwise the selection stays as it is (entering editing mode with selection during
    ///   editing on keeps it, as does leaving editing mode into a mode that allows it).
    ///
    /// These deselections are not the user's: no `didDeselect` is due.
    ///
    /// ```swift
    /// var settings = selection.settings
    /// settings.allowsMultipleSelection = false
    /// let change = selection.setSettings(settings)   // change.deselected: all but the first
    /// ```
    /// - Complexity: O(n) for n selected items when they are trimmed; O(1) otherwise.
    @discardableResult
    public mutating func setSettings(_ newSettings: SelectionSettings) -> SelectionChange<ItemIdentifier> {
        settings = newSettings
        var change = SelectionChange<ItemIdentifier>(isUserInteraction: false)
        if !settings.allowsSelectionNow {
            change.deselected = deselectAll().deselected
        } else if !settings.allowsMultipleSelectionNow, let first = selected.first, selected.count > 1 {
            change.deselected = removeAll(except: first)
            extent = nil
        }
        return change
    }

    /// Enters or leaves editing mode (UIKit's `isEditing`, `setEditing(_:animated:)`), trimming the
    /// selection as ``setSettings(_:)`` does: with the default settings, entering editing mode
    /// deselects everything, since selection during editing is off.
    /// - Complexity: as ``setSettings(_:)``.
    @discardableResult
    public mutating func setEditing(_ editing: Bool) -> SelectionChange<ItemIdentifier> {
        var newSettings = settings
        newSettings.isEditing = editing
        return setSettings(newSettings)
    }
}
