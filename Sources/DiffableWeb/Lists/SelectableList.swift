import DiffableDataSources

/// A list whose items people select (UICollectionView's selection, kept by identifier): its
/// page is a listbox (click, Shift-click, Space, Shift+↑/↓, Ctrl/Cmd+A), its events carry the
/// selection, scripts change it through `…/selection`, and it is saved with the list's state.
///
/// The framework keeps the selection (an `ItemSelection`) beside the list's state and
/// reconciles it through every apply: a moved item stays selected, a deleted or reloaded one
/// leaves. The delegate's methods are the list's, run on its state inside the write, as
/// UIKit calls them: `shouldSelect`/`shouldDeselect` and `didSelect`/`didDeselect` for a
/// person's tap only, never for a script's change (`selectItem(at:…)` calls no delegate).
///
/// ```swift
/// struct Inbox: SelectableList {
///     var selectionSettings: SelectionSettings { SelectionSettings(allowsMultipleSelection: true) }
///     var opened = 0
///     mutating func performPrimaryAction(for item: String) { opened += 1 }
///     mutating func perform(_ action: Action, on list: inout Snapshot<String, String>,
///                           selection: inout ItemSelection<String>) throws {
///         if case .archiveSelected = action { try list.deleteItems(selection.selectedItems) }
///         else { try perform(action, on: &list) }
///     }
///     …
/// }
/// ```
public protocol SelectableList: WebList where ItemID == String {
    /// Whether a row holds controls of its own (a Like button): its page is then the WAI-ARIA
    /// grid pattern (rows with `aria-selected`, each control a cell that ← and → reach) rather
    /// than a listbox, whose options may hold none. Default: `false`.
    static var rowsHoldControls: Bool { get }

    /// What people may select now: an instance property, so that an action can change it; the
    /// framework trims the selection to new settings after every write. Its `isEditing` is not
    /// read: editing mode is the selection's (the page's Edit button, a script's `…/editing`, an
    /// action's `selection.setEditing(_:)`). Default: UIKit's (single selection).
    var selectionSettings: SelectionSettings { get }

    /// `collectionView(_:shouldSelectItemAt:)`: whether a person's tap may select `item`. Default: yes.
    func shouldSelect(_ item: String) -> Bool
    /// `collectionView(_:shouldDeselectItemAt:)`. Default: yes.
    func shouldDeselect(_ item: String) -> Bool
    /// `collectionView(_:didSelectItemAt:)`: a person selected `item`. Default: nothing.
    mutating func didSelect(_ item: String)
    /// `collectionView(_:didDeselectItemAt:)`: a person deselected `item`. Default: nothing.
    mutating func didDeselect(_ item: String)
    /// `collectionView(_:performPrimaryActionForItemAt:)`: a person tapped `item` alone, out of
    /// editing mode (see `ItemSelection.tap`). Default: nothing.
    mutating func performPrimaryAction(for item: String)
    /// The list's own action that a primary action on `item` runs, after
    /// ``performPrimaryAction(for:)`` and in the same write (its changes animate as the action's
    /// would: the Outline's `toggle` of a band). One the list refuses changes nothing and the
    /// tap's selection stands. Default: none.
    func primaryAction(for item: String) -> Action?

    /// Runs an action that reads or changes the selection (a bulk "Delete selected"): changes
    /// made to `selection` are code's (no `didSelect`). Default: ``WebList/perform(_:on:)``.
    mutating func perform(_ action: Action, on list: inout Snapshot<SectionID, String>, selection: inout ItemSelection<String>) throws
}

extension SelectableList {
    public static var rowsHoldControls: Bool { false }
    public var selectionSettings: SelectionSettings { SelectionSettings() }
    public func shouldSelect(_ item: String) -> Bool { true }
    public func shouldDeselect(_ item: String) -> Bool { true }
    public mutating func didSelect(_ item: String) {}
    public mutating func didDeselect(_ item: String) {}
    public mutating func performPrimaryAction(for item: String) {}
    public func primaryAction(for item: String) -> Action? { nil }
    public mutating func perform(_ action: Action, on list: inout Snapshot<SectionID, String>, selection: inout ItemSelection<String>) throws {
        try perform(action, on: &list)
    }
}
