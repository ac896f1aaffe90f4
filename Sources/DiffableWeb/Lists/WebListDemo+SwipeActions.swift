import DiffableDataSources

// A ``SwipeActionsList``'s swipe actions: what an item offers, and performing one (the item and
// the action checked first: a refused request changes nothing).
extension WebListDemo: ContextualActionsServing {
    var offersSwipeActions: Bool { List.self is any SwipeActionsList.Type }

    func swipeActions(for item: String, in snapshot: Snapshot<String, String>) throws -> OfferedSwipeActions {
        guard let list = current as? any SwipeActionsList else { throw Self.noSwipeActions }
        return try Self.swipeActions(of: list, for: item, in: snapshot)
    }

    private static func swipeActions<Swiping: SwipeActionsList>(of list: Swiping, for item: String,
                                                               in snapshot: Snapshot<String, String>) throws -> OfferedSwipeActions {
        let typed = try swipedItem(item, of: Swiping.self, in: snapshot)
        return OfferedSwipeActions(item: item, leading: list.leadingSwipeActions(for: typed), trailing: list.trailingSwipeActions(for: typed))
    }

    func performSwipeAction(_ identifier: String, on item: String, transaction: ListTransaction) throws -> Bool {
        guard let list = current as? any SwipeActionsList else { throw Self.noSwipeActions }
        return try performSwipeAction(identifier, on: item, of: list, transaction: transaction)
    }

    private func performSwipeAction<Swiping: SwipeActionsList>(_ identifier: String, on item: String, of list: Swiping,
                                                              transaction: ListTransaction) throws -> Bool {
        let typed = try Self.swipedItem(item, of: Swiping.self, in: transaction.snapshot())
        guard list.offeredSwipeAction(identifier, for: typed) != nil else {
            let offered = [list.leadingSwipeActions(for: typed), list.trailingSwipeActions(for: typed)]
                .compactMap { $0 }.flatMap(\.actions).map { "“\($0.identifier)”" }
            throw ActionError.unprocessable(
                code: "swipe_action_not_offered",
                message: "Item “\(item.prefix(80))” offers no swipe action “\(identifier.prefix(80))”"
                    + (offered.isEmpty ? " (it offers none)" : " (it offers \(offered.joined(separator: ", ")))"))
        }
        return try runContextual(on: transaction) { list, items in
            // `Swiping` is `List` (the list was cast to it): the casts only name it so.
            guard var swiping = list as? Swiping, var typedItems = items as? Snapshot<Swiping.SectionID, Swiping.ItemID> else { return false }
            guard try swiping.performSwipeAction(identifier, on: typed, list: &typedItems),
                  let back = swiping as? List, let backItems = typedItems as? Snapshot<List.SectionID, List.ItemID> else { return false }
            list = back
            items = backItems
            return true
        }
    }

    /// `item` typed, if the list has it.
    private static func swipedItem<Swiping: SwipeActionsList>(_ item: String, of type: Swiping.Type,
                                                             in snapshot: Snapshot<String, String>) throws -> Swiping.ItemID {
        guard snapshot.contains(item: item), let typed = Swiping.ItemID(item) else { throw SelectionError.unknownItems([item]) }
        return typed
    }

    static var noSwipeActions: ActionError {
        .unprocessable(code: "no_swipe_actions", message: "The \(List.name) list has no swipe actions")
    }
}
