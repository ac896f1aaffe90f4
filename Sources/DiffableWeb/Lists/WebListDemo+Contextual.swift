import DiffableDataSources

// What a swipe action's and a menu action's handlers share: the list's own method run on a
// copy of its state and typed items, and the result applied as an action's is.
extension WebListDemo {
    /// Runs `body` on a copy of the list's state and its typed items; applies what it changed
    /// (the items, animated; or only the state, when that shows) unless it returned `false`.
    /// - Returns: what `body` returned.
    func runContextual(on transaction: ListTransaction,
                       _ body: (inout List, inout Snapshot<List.SectionID, List.ItemID>) throws -> Bool) throws(ActionError) -> Bool {
        let current = transaction.snapshot()
        var snapshot = current
        var changed = self.current
        var proceeded = false
        try Self.mutate(&changed, snapshot: &snapshot) { list, items throws(ActionError) in
            var copy = list
            var typed = items
            do {
                proceeded = try body(&copy, &typed)
            } catch {
                throw Self.actionError(error)
            }
            guard proceeded else { return }  // UIKit's completion(false): the row goes back
            list = copy
            items = typed
        }
        guard proceeded else { return false }
        let stateBefore = persistentState()
        update(changed)
        if WireIdentifiers.changes(snapshot, from: current) || persistentState() != stateBefore {
            _ = transaction.apply(snapshot, animatingDifferences: true)
        }
        return true
    }
}
