// Selecting: a person's tap or a script's request changes the selection in a write of its own,
// alone among the list's writes; a change that shows is applied (the list as it is, a new
// version), so that every stream gets it as a `changeset` with its `selection`.
extension LiveList {
    /// Changes the list's selection. A `seq` not newer than the newest one applied for the same
    /// `client` is ignored, as an action's is.
    /// - Returns: the version after the request, and the selection.
    /// - Throws: `SelectionError` or ``ActionError`` (nothing changed), or what a write throws.
    func select(_ request: SelectionRequest, client: String, seq: Int?) async throws -> (version: Int, selection: ListSelection?) {
        try await exclusive { list in
            if let seq, self.isStale(seq: seq, client: "select:" + client) { return (list.version, self.demo.selection) }
            _ = try self.demo.select(request, on: list)
            return (list.version, self.demo.selection)
        }
    }

    /// Whether `seq` is not newer than the newest one applied for `client` (and, if it is newer,
    /// records it).
    func isStale(seq: Int, client: String) -> Bool {
        state.withLock { state -> Bool in
            if let last = state.newestSeq[client], seq <= last { return true }
            if state.newestSeq.count > 64, state.newestSeq[client] == nil { state.newestSeq.removeAll() }  // bounded
            state.newestSeq[client] = seq
            return false
        }
    }

    /// The selection and the version it belongs to, read together.
    func currentSelection() -> (version: Int, selection: ListSelection?) {
        (dataSource.version, demo.selection)
    }
}
