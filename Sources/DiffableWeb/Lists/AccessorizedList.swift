/// A list whose cells carry accessories (UIKit's `UICellListContentConfiguration` with
/// `cell.accessories`): the framework renders them around each cell's content, and the page
/// shows each one in the editing states it is displayed in (``CellAccessory/DisplayedState``).
///
/// ```swift
/// extension Contacts: AccessorizedList {
///     func accessories(for item: String) -> [CellAccessory] {
///         [.delete(), .multiselect(), .reorder(), .label(phone(of: item)), .disclosureIndicator()]
///     }
/// }
/// ```
///
/// Editing mode is a ``SelectableList``'s (its selection's `isEditing`): in a list without
/// selection, `.whenEditing` accessories never show. A ``SharedCells`` list's accessories must
/// be a function of the item alone, as its cells are.
public protocol AccessorizedList: WebList {
    /// The accessories of `item`'s cell, in any order: the renderer places each at its edge.
    func accessories(for item: ItemID) -> [CellAccessory]

    /// The name accessories call the item by in their accessible names ("Delete Bob").
    /// Default: `nil`, the cell's `label`, `title` or `name` value, or its identifier.
    func accessibilityName(for item: ItemID) -> String?
}

extension AccessorizedList {
    public func accessibilityName(for item: ItemID) -> String? { nil }
}
