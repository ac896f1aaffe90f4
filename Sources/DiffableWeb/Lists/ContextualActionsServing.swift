import DiffableDataSources

/// What the routes of swipe actions and context menus ask of a list (``SwipeActionsList``,
/// ``ContextMenuList``), untyped: the web layer's demos are strings on the wire. A
/// ``WebListDemo`` answers for its list (`+SwipeActions`, `+ContextMenu`).
protocol ContextualActionsServing: Demo {
    var offersSwipeActions: Bool { get }
    var offersContextMenus: Bool { get }

    /// The actions `item` offers on each edge (`nil`: none on that edge).
    /// - Throws: `SelectionError.unknownItems` when the list has no such item.
    func swipeActions(for item: String, in snapshot: Snapshot<String, String>) throws -> OfferedSwipeActions

    /// Runs the swipe action `identifier` on `item`, inside a write.
    /// - Returns: the handler's completion (`false`: nothing changed).
    /// - Throws: `SelectionError.unknownItems` (404), ``ActionError`` (422, an action the item
    ///   does not offer, or the handler's error); nothing changes then.
    func performSwipeAction(_ identifier: String, on item: String, transaction: ListTransaction) throws -> Bool

    /// The items a menu opened at `item` (`nil`: empty space) is for, and that menu.
    /// - Throws: `SelectionError.unknownItems` when the list has no such item.
    func contextMenu(at item: String?, in snapshot: Snapshot<String, String>) throws -> OfferedMenu

    /// The menu for exactly `items`.
    /// - Throws: `SelectionError.unknownItems` naming those the list lacks.
    func contextMenu(forItems items: [String], in snapshot: Snapshot<String, String>) throws -> OfferedMenu

    /// Runs the menu action `identifier` on `items`, inside a write.
    /// - Throws: as ``performSwipeAction(_:on:transaction:)``; nothing changes then.
    func performMenuAction(_ identifier: String, on items: [String], transaction: ListTransaction) throws
}

/// An item's swipe actions as the wire carries them.
struct OfferedSwipeActions: Sendable, Encodable {
    var item: String
    var leading: SwipeActionsConfiguration?
    var trailing: SwipeActionsConfiguration?

    enum CodingKeys: String, CodingKey { case item, leading, trailing }

    /// An edge without actions is `null`, not left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(item, forKey: .item)
        try container.encode(leading, forKey: .leading)
        try container.encode(trailing, forKey: .trailing)
    }
}

/// A context menu and the items it is for, as the wire carries them.
struct OfferedMenu: Sendable, Encodable {
    var items: [String]
    var menu: ContextMenu?

    enum CodingKeys: String, CodingKey { case items, menu }

    /// No menu is `null`, not left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(menu, forKey: .menu)
    }
}
