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

// A detail accessory's tap (`…/detail-accessory`): the list's `accessoryButtonTapped(for:)`, for
// an item whose `detail` accessory shows in the current editing state.
extension WebListDemo: DetailAccessoryServing {
    var hasDetailAccessories: Bool { registration.hasAccessories }

    func tapDetailAccessory(of item: String, on transaction: ListTransaction) throws -> Bool {
        guard registration.hasAccessories, let list = current as? any AccessorizedList else {
            throw ActionError.unprocessable(code: "accessory_not_offered", message: "The \(List.name) list has no accessories")
        }
        return try Self.tapDetail(item, of: list, on: transaction, demo: self)
    }

    private static func tapDetail<Accessorized: AccessorizedList>(_ item: String, of list: Accessorized, on transaction: ListTransaction,
                                                                 demo: WebListDemo) throws -> Bool {
        let snapshot = transaction.snapshot()
        guard snapshot.contains(item: item), let id = Accessorized.ItemID(item) else { throw SelectionError.unknownItems([item]) }
        let editing = demo.value.withLock { $0.selection.settings.isEditing }
        guard list.accessories(for: id).contains(where: { $0.kind == .detail && $0.isVisible(editing: editing) }) else {
            throw ActionError.unprocessable(code: "accessory_not_offered",
                                            message: "\(item) shows no detail accessory\(editing ? " while editing" : "")")
        }
        var changed = list
        changed.accessoryButtonTapped(for: id)
        let (before, page) = (demo.persistentState(), demo.pageValues())
        if let changed = changed as? List { demo.update(changed) }
        // A tap that changed the list's state is news (its page state, its status); else nothing is applied.
        guard demo.persistentState() != before || demo.pageValues() != page else { return false }
        transaction.apply(snapshot, animatingDifferences: false)
        return true
    }
}

/// A demo whose cells may carry a detail accessory (``AccessorizedList``).
protocol DetailAccessoryServing: Demo {
    var hasDetailAccessories: Bool { get }
    /// Runs the list's `accessoryButtonTapped(for:)` inside a write.
    /// - Returns: whether the list's state changed (then the list as it is was applied: a version).
    /// - Throws: `SelectionError.unknownItems` (404 unknown_item), ``ActionError`` (422
    ///   accessory_not_offered); nothing changes.
    func tapDetailAccessory(of item: String, on transaction: ListTransaction) throws -> Bool
}
