// Deleting one item through the list's own hook (``DeletableList``), in a write of its own: the
// deletion is applied animated and streams to every tab as a `changeset`.
extension LiveList {
    /// Deletes `item`. A `seq` not newer than the newest one applied for the same `client` is
    /// ignored, as an action's is.
    /// - Returns: the version after the request.
    /// - Throws: `SelectionError.unknownItems`, ``ActionError`` (nothing changed), or what a write throws.
    func deleteItem(_ item: String, client: String, seq: Int?) async throws -> Int {
        try await exclusive { list in
            if let seq, self.isStale(seq: seq, client: "delete:" + client) { return list.version }
            guard let demo = self.demo as? any DeletingDemo else {
                throw ActionError.unprocessable(code: "not_deletable", message: "The \(self.name) list deletes no items")
            }
            try demo.deleteItem(item, on: list)
            return list.version
        }
    }
}
