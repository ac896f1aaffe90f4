// An ``AccessorizedList``'s cells: its content with the item's accessories, rendered around it.
extension WebListDemo {
    static func accessorized(_ content: CellContent, item: List.ItemID, of list: List) -> CellContent {
        guard let accessorizedList = list as? any AccessorizedList else { return content }
        return Self.accessorized(content, item: item, of: accessorizedList)
    }

    private static func accessorized<Accessorized: AccessorizedList>(_ content: CellContent, item: List.ItemID,
                                                                    of list: Accessorized) -> CellContent {
        // `Accessorized` is `List` (the list was cast to it): the identifier is the same type.
        guard let id = item as? Accessorized.ItemID else { return content }
        let accessories = list.accessories(for: id)
        return accessories.isEmpty ? content : content.accessorized(accessories, name: list.accessibilityName(for: id))
    }
}
