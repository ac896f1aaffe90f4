// Swipe actions and context menu actions: each in a write of its own, as an action is; a `seq`
// not newer than the newest one applied for the same `client` is ignored (nothing performed).
extension LiveList {
    /// Performs the swipe action `identifier` on `item`.
    /// - Returns: the version after it, and whether the handler completed (`false`: nothing changed).
    func performSwipeAction(_ identifier: String, on item: String, client: String, seq: Int?) async throws -> (version: Int, performed: Bool) {
        try await exclusive { list in
            if let seq, self.isStale(seq: seq, client: "swipe:" + client) { return (list.version, false) }
            guard let demo = self.demo as? any ContextualActionsServing, demo.offersSwipeActions else {
                throw ActionError.unprocessable(code: "no_swipe_actions", message: "The \(self.name) list has no swipe actions")
            }
            let performed = try demo.performSwipeAction(identifier, on: item, transaction: list)
            return (list.version, performed)
        }
    }

    /// Performs the menu action `identifier` on `items`.
    /// - Returns: the version after it, and whether it ran (`false`: a stale `seq`).
    func performMenuAction(_ identifier: String, on items: [String], client: String, seq: Int?) async throws -> (version: Int, performed: Bool) {
        try await exclusive { list in
            if let seq, self.isStale(seq: seq, client: "menu:" + client) { return (list.version, false) }
            guard let demo = self.demo as? any ContextualActionsServing, demo.offersContextMenus else {
                throw ActionError.unprocessable(code: "no_context_menu", message: "The \(self.name) list has no context menu")
            }
            try demo.performMenuAction(identifier, on: items, transaction: list)
            return (list.version, true)
        }
    }
}
