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

    /// A person tapped `item`'s detail accessory (UITableView's
    /// `tableView(_:accessoryButtonTappedForRowWith:)`, the `detail` accessory's action handler):
    /// runs on the list's state inside a write, as an action does; a change of state is a new
    /// version (the page shows what it changed). Only an item whose `detail` accessory shows now
    /// can be tapped: another is a 422 `accessory_not_offered`. Default: nothing.
    mutating func accessoryButtonTapped(for item: ItemID)
}

extension AccessorizedList {
    public func accessibilityName(for item: ItemID) -> String? { nil }
    public mutating func accessoryButtonTapped(for item: ItemID) {}
}
