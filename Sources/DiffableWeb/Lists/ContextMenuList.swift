import DiffableDataSources

/// A list whose items have a context menu (UIKit's
/// `collectionView(_:contextMenuConfigurationForItemsAt:point:)`): right-click, a long press,
/// or the ContextMenu key (Shift+F10) on a row opens it; scripts read and choose it through
/// `…/menu`.
///
/// The items a menu is for follow UIKit: opened on an item of a multiple selection (a
/// ``SelectableList``), every selected item; on any other item, that item; on empty space,
/// none (`[]`). The menu's contents are the server's, asked for those items when it opens.
///
/// ```swift
/// func contextMenu(forItems items: [String]) -> ContextMenu? {
///     items.isEmpty ? nil : ContextMenu(children: [MenuAction(title: "Archive", identifier: "archive")])
/// }
/// mutating func performMenuAction(_ identifier: String, on items: [String], list: inout Snapshot<String, String>) throws {
///     try list.deleteItems(items)
/// }
/// ```
public protocol ContextMenuList: WebList {
    /// The menu for `items` (empty: the list's empty space), or `nil` for no menu.
    func contextMenu(forItems items: [ItemID]) -> ContextMenu?

    /// The handler of the menu action `identifier` (one of the menu's for `items`, not
    /// disabled: the framework checks), run on the list's state and items inside a write.
    /// Throwing leaves both as they were, answered as ``WebList/perform(_:on:)``'s errors are.
    mutating func performMenuAction(_ identifier: String, on items: [ItemID], list: inout Snapshot<SectionID, ItemID>) throws
}
