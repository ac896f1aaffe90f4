/// What one operation on an ``ItemSelection`` changed, and whom to tell.
///
/// UIKit calls its delegate's `collectionView(_:didSelectItemAt:)` and `didDeselectItemAt` when
/// the user changes the selection, and never when code does ("It does not call this method when
/// you programmatically set the selection", says `didSelectItemAt`'s documentation; likewise
/// `selectItem(at:animated:scrollPosition:)` and `deselectItem(at:animated:)` "don't cause any
/// selection-related delegate methods to be called"). A change says which it was in
/// ``isUserInteraction``:
///
/// ```swift
/// let change = try selection.tap(item, in: snapshot)
/// if change.isUserInteraction {
///     change.deselected.forEach(didDeselect)
///     change.selected.forEach(didSelect)
/// }
/// if let item = change.primaryActionItem { open(item) }
/// ```
public struct SelectionChange<ItemIdentifier: Hashable & Sendable>: Sendable, Equatable {
    /// Items that became selected, in the order they were added to the selection.
    public var selected: [ItemIdentifier]
    /// Items that stopped being selected, in the order they were removed.
    public var deselected: [ItemIdentifier]
    /// Whether the user made the change (a tap, a Shift-click), so that `didSelect` and
    /// `didDeselect` are due; `false` for a change made by code, by new settings or by an apply.
    public var isUserInteraction: Bool
    /// The item whose primary action to perform (UIKit's `collectionView(_:performPrimaryActionForItemAt:)`),
    /// or `nil`: set for a tap that selects one item without extending a selection, out of
    /// editing mode (see ``ItemSelection/tap(_:in:shouldSelect:shouldDeselect:)``).
    public var primaryActionItem: ItemIdentifier?

    /// A change.
    /// - Complexity: O(1).
    public init(selected: [ItemIdentifier] = [], deselected: [ItemIdentifier] = [],
                isUserInteraction: Bool, primaryActionItem: ItemIdentifier? = nil) {
        self.selected = selected
        self.deselected = deselected
        self.isUserInteraction = isUserInteraction
        self.primaryActionItem = primaryActionItem
    }

    /// Whether the selection stayed as it was (a primary action may still be due).
    /// - Complexity: O(1).
    public var isEmpty: Bool { selected.isEmpty && deselected.isEmpty }
}
