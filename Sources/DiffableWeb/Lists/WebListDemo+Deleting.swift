import DiffableDataSources

// A ``DeletableList``'s one-item delete (the delete accessory's confirmation, `…/delete-item`):
// the list's `canDelete`, then its `delete(_:from:)` on the wire snapshot, applied animated.
extension WebListDemo: DeletingDemo {
    var deletesItems: Bool { registration.isDeletable }

    func deleteItem(_ item: String, on transaction: ListTransaction) throws {
        guard registration.isDeletable, let deletable = current as? any DeletableList else {
            throw ActionError.unprocessable(code: "not_deletable", message: "The \(List.name) list deletes no items")
        }
        try Self.delete(item, of: deletable, on: transaction, demo: self)
    }

    private static func delete<Deletable: DeletableList>(_ item: String, of list: Deletable, on transaction: ListTransaction,
                                                         demo: WebListDemo) throws {
        let current = transaction.snapshot()
        guard current.contains(item: item), let id = Deletable.ItemID(item) else { throw SelectionError.unknownItems([item]) }
        let refused = ActionError.unprocessable(code: "deletion_not_allowed", message: "\(item) cannot be deleted")
        guard list.canDelete(id) else { throw refused }
        var changed = list
        var typed = try WireIdentifiers.typed(current, as: Snapshot<Deletable.SectionID, Deletable.ItemID>.self, list: Deletable.name)
        do {
            try changed.delete(id, from: &typed)
        } catch {
            throw ActionError.unprocessable(code: "deletion_not_allowed", message: "\(item) cannot be deleted: \(error)")
        }
        let snapshot = try WireIdentifiers.wire(typed)
        if let changed = changed as? List { demo.update(changed) }
        if WireIdentifiers.changes(snapshot, from: current) { _ = transaction.apply(snapshot, animatingDifferences: true) }
    }
}

/// A demo that deletes single items through its list's own hook (``DeletableList``).
protocol DeletingDemo: Demo {
    /// Whether its list is a ``DeletableList``.
    var deletesItems: Bool { get }
    /// Deletes `item` inside a write (`transaction`), through the list's `canDelete` and
    /// `delete(_:from:)`.
    /// - Throws: `SelectionError.unknownItems` (404 unknown_item), ``ActionError``
    ///   (422 deletion_not_allowed); nothing changes.
    func deleteItem(_ item: String, on transaction: ListTransaction) throws
}
