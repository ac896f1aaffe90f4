import DiffableDataSources

// A ``ContextMenuList``'s menus: the items a menu opened at a point is for (the selection's, by
// UIKit's rule: `ItemSelection.contextMenuItems(at:in:)`), its contents, and choosing an action
// (the items and the action checked first: a refused request changes nothing).
extension WebListDemo {
    var offersContextMenus: Bool { List.self is any ContextMenuList.Type }

    func contextMenu(at item: String?, in snapshot: Snapshot<String, String>) throws -> OfferedMenu {
        if let item, !snapshot.contains(item: item) { throw SelectionError.unknownItems([item]) }
        let items = registration.isSelectable ? value.withLock { $0.selection }.contextMenuItems(at: item, in: snapshot)
                                              : item.map { [$0] } ?? []
        return try contextMenu(forItems: items, in: snapshot)
    }

    func contextMenu(forItems items: [String], in snapshot: Snapshot<String, String>) throws -> OfferedMenu {
        guard let list = current as? any ContextMenuList else { throw Self.noContextMenu }
        return OfferedMenu(items: items, menu: try Self.menu(of: list, forItems: items, in: snapshot))
    }

    private static func menu<Menus: ContextMenuList>(of list: Menus, forItems items: [String],
                                                    in snapshot: Snapshot<String, String>) throws -> ContextMenu? {
        let unknown = items.filter { !snapshot.contains(item: $0) }
        let typed = items.compactMap(Menus.ItemID.init)
        guard unknown.isEmpty, typed.count == items.count else {
            throw SelectionError.unknownItems(unknown.isEmpty ? items.filter { Menus.ItemID($0) == nil } : unknown)
        }
        return list.contextMenu(forItems: typed)
    }

    func performMenuAction(_ identifier: String, on items: [String], transaction: ListTransaction) throws {
        guard let list = current as? any ContextMenuList else { throw Self.noContextMenu }
        try performMenuAction(identifier, on: items, of: list, transaction: transaction)
    }

    private func performMenuAction<Menus: ContextMenuList>(_ identifier: String, on items: [String], of list: Menus,
                                                          transaction: ListTransaction) throws {
        let menu = try Self.menu(of: list, forItems: items, in: transaction.snapshot())
        guard let action = menu?.children.first(where: { $0.identifier == identifier }) else {
            let offered = menu?.children.map { "“\($0.identifier)”" } ?? []
            throw ActionError.unprocessable(
                code: "menu_action_not_offered",
                message: "The menu for \(Self.describe(items)) has no action “\(identifier.prefix(80))”"
                    + (offered.isEmpty ? " (it has none)" : " (it has \(offered.joined(separator: ", ")))"))
        }
        guard !action.attributes.contains(.disabled) else {
            throw ActionError.unprocessable(code: "menu_action_disabled",
                                            message: "“\(action.title)” is disabled for \(Self.describe(items))")
        }
        let typed = items.compactMap(Menus.ItemID.init)
        _ = try runContextual(on: transaction) { list, snapshot in
            // `Menus` is `List` (the list was cast to it): the casts only name it so.
            guard var menus = list as? Menus, var typedItems = snapshot as? Snapshot<Menus.SectionID, Menus.ItemID> else { return false }
            try menus.performMenuAction(identifier, on: typed, list: &typedItems)
            guard let back = menus as? List, let backItems = typedItems as? Snapshot<List.SectionID, List.ItemID> else { return false }
            list = back
            snapshot = backItems
            return true
        }
    }

    private static func describe(_ items: [String]) -> String {
        switch items.count {
        case 0: "the list's empty space"
        case 1: "item “\(items[0].prefix(80))”"
        default: "\(items.count) items"
        }
    }

    static var noContextMenu: ActionError {
        .unprocessable(code: "no_context_menu", message: "The \(List.name) list has no context menu")
    }
}
