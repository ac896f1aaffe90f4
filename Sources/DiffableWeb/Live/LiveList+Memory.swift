import DiffableDataSources

// What a list holds in memory, kept as writes happen, and the write refused when it would
// pass its session's budget or the server's (see ``MemoryAccount``, ``MemoryCost``).
extension LiveList {
    /// Checks the growth of what the running write applied so far against the list's account;
    /// past a budget, puts the list back as the write found it (snapshot, version, demo state;
    /// nothing was published, saved or streamed yet) and throws why.
    ///
    /// A list derived from its demo's state (a Mountains search) shows a snapshot that every
    /// session shares (the search cache's): it holds nothing of its own, and a write that leaves
    /// it derived is never refused. A script's `edit` makes it an ordinary list: checked.
    /// - Complexity: O(items inserted and deleted by the write).
    func checkMemory(undoing before: (version: Int, snapshot: Snapshot<String, String>), demoState: DemoCheckpoint, edit: Bool) throws {
        guard let account = memory.account, edit || !demo.derivesList else { return }
        let changed = collected.withLock { updates in updates.reduce(0) { $0 + MemoryCost.growth(of: $1.changeset) } }
        // A write that changes the list drops its cached snapshot body (``commit``): that room
        // is the write's too, so a read that filled the cache never makes a write fail.
        let growth = changed - memory.caches
        do {
            try account.check(growth: growth)
        } catch {
            // Undone as a whole. (A data source's outlines do not survive `restore`; no demo
            // with outlines grows by more than a few rows per write.)
            dataSource.restore(before.snapshot, version: before.version)
            restoreDemo(demoState)
            collected.withLock { $0.removeAll() }
            layouts.removeAll()
            throw error
        }
    }

    /// Counts what a write's updates (its own and those caught up from other processes) added
    /// to the list, or, for a list now derived from its demo's state, that it holds nothing of
    /// its own.
    func chargeMemory(of updates: [DataSourceUpdate<String, String>]) {
        if demo.derivesList {
            memory.setContents(0)
        } else if !updates.isEmpty {
            memory.addContents(updates.reduce(0) { $0 + MemoryCost.growth(of: $1.changeset) })
        }
    }
}
