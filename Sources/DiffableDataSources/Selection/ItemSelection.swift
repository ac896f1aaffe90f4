import OrderedCollections

/// A list's selection, as UICollectionView keeps it, but by item identifier rather than index
/// path, so that it survives every apply.
///
/// `ItemSelection` is a value: the ``SelectionSettings`` (UIKit's `allowsSelection`,
/// `allowsMultipleSelection`, `isEditing`…) and the selected items in the order they were
/// selected. It knows nothing of views or requests: the caller hands it what the user did (a
/// tap, a Shift-click), what code does (``selectItem(_:in:)``), and each apply of the list's
/// data source (``reconcile(with:)-(DataSourceUpdate<SectionID,ItemIdentifier>)``), and shows the ``SelectionChange`` each returns.
///
/// ```swift
/// var selection = ItemSelection<Mountain.ID>()             // single selection
/// try selection.tap(everest, in: snapshot)                 // selected: [everest], primary action
/// try selection.tap(k2, in: snapshot)                      // deselected: [everest], selected: [k2]
/// selection.selectedItems                                  // [k2]
/// dataSource.addObserver { update in selection.reconcile(with: update) }  // (behind a lock)
/// ```
///
/// # The user and code
/// A tap (``tap(_:in:shouldSelect:shouldDeselect:)``) follows UIKit's rules for the current
/// settings, asks the `shouldSelect` and `shouldDeselect` closures (the delegate's
/// `collectionView(_:shouldSelectItemAt:)` and `shouldDeselectItemAt`), and returns a change to
/// report as `didSelect` and `didDeselect`. Code selects with ``selectItem(_:in:)``,
/// ``selectItems(_:in:)``, ``deselectItem(_:)``, ``deselectAll()`` and ``selectAll(in:)``, which
/// ask no one and report nothing to a delegate, as UIKit's `selectItem(at:animated:scrollPosition:)`.
///
/// # Through an apply
/// The selection is kept by identifier: an item that moves stays selected, a reconfigured one
/// too; an item that is deleted or reloaded leaves it (see
/// ``reconcile(with:)-(DataSourceUpdate<SectionID,ItemIdentifier>)``).
///
/// # Errors instead of traps
/// Selecting an item the snapshot does not contain, or adding a second item to a
/// single-selection list with ``selectItems(_:in:)``, throws a ``SelectionError`` naming it, and
/// leaves the selection exactly as it was.
///
/// # Invariants
/// The selected items are in the list; at most one is selected while multiple selection is not
/// in effect (``SelectionSettings/allowsMultipleSelectionNow``); none while selection is not
/// allowed (``SelectionSettings/allowsSelectionNow``). Tests check them with
/// `_brokenInvariant(in:)`.
public struct ItemSelection<ItemIdentifier: Hashable & Sendable>: Sendable, Equatable {
    /// What the user may select now; change it with ``setSettings(_:)`` or ``setEditing(_:)``.
    public internal(set) var settings: SelectionSettings
    /// The selected items, in the order they were selected.
    @usableFromInline var selected: OrderedSet<ItemIdentifier> = []
    /// Where a range selection starts: the item last tapped or selected by code (UIKit's and
    /// AppKit's anchor for Shift-click and Shift+arrow).
    @usableFromInline var anchor: ItemIdentifier?
    /// Where the last range selection from ``anchor`` ended, so that the next one replaces it
    /// (Shift+↓ then Shift+↑ shrinks the range) instead of adding to it.
    @usableFromInline var extent: ItemIdentifier?

    /// An empty selection with these settings (UIKit's defaults unless given).
    /// - Complexity: O(1).
    public init(settings: SelectionSettings = SelectionSettings()) {
        self.settings = settings
    }

    /// The selected items, in the order they were selected (UIKit's `indexPathsForSelectedItems`).
    /// - Complexity: O(1) (the array is shared until changed).
    public var selectedItems: [ItemIdentifier] { selected.elements }

    /// The number of selected items. - Complexity: O(1).
    public var count: Int { selected.count }

    /// Whether nothing is selected. - Complexity: O(1).
    public var isEmpty: Bool { selected.isEmpty }

    /// Whether an item is selected. - Complexity: expected O(1).
    public func isSelected(_ item: ItemIdentifier) -> Bool { selected.contains(item) }
}
