import CompositionalLayout
import DiffableDataSources
import Synchronization

// The write gate: every change runs alone through the list's one writer, is kept within the
// list limits, and is saved before it returns (see the type's documentation).
extension LiveList {
    /// Runs a write alone among this list's writers.
    func exclusive<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
        try await write(body)
    }

    /// The one way a change reaches the data source: alone among this list's writers (and, on
    /// a shared store, among every process's, caught up first with what the others wrote), and
    /// saved before it returns, so before its request is answered. Its events go out once it
    /// is saved, in version order with every other event (``outbox``).
    ///
    /// On the embedded store the save is a group commit: the writer hands the change to the
    /// store's committer and lets the next writer in while it commits; changes that queue up
    /// meanwhile commit together. A view-only change (a search) is saved within 250 ms instead
    /// (not on a shared store: there every change is saved before the next one is applied).
    /// - Throws: ``ListStoreError`` when the save failed: the list is then retired, and its
    ///   session makes it again from what the store has.
    private func write<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
        // A refusal (`body` throws) is the caller's answer, but whatever `body` applied before
        // it threw is saved and shown like any change: the data source did change.
        typealias Commit = (ticket: Int, receipt: SaveReceipt, storage: ListStorage)
        let (result, commit) = try await writer.run { () async throws -> (Result<T, any Error>, Commit?) in
            guard !self.isRetired else { throw ListStoreError.retired }
            guard let storage = self.storage else { return (Result { try self.admitted(body) }, nil) }
            return try await self.holdingEvents(storage) { ticket in
                let (result, receipt) = try await storage.store.write(storage.key, from: self.position, { missed in
                    if let missed { try self.catchUp(missed) }
                    let result = Result { try self.admitted(body) }
                    return (result, self.takePendingWrite())
                }, undo: {})
                return (result, (ticket, receipt, storage))
            }
        }
        if let (ticket, receipt, storage) = commit {
            do {
                try await receipt.wait()
                markReady(ticket)
            } catch {
                discard(ticket)
                retire(because: "\(error)", storage: storage)
                throw ListStoreError.saveFailed("\(error)")
            }
        }
        return try result.get()
    }

    /// Runs a write's `body` and, when the data source refused one of its applies (it would
    /// break the list limits: `APILimits.sizeFailure(of:)`), throws why (`422 list_too_large`)
    /// with the demo's state as it was before: the refused apply changed nothing, streamed
    /// nothing and saved nothing, and neither did any apply after it in `body`.
    private func admitted<T>(_ body: () throws -> T) throws -> T {
        let before = demo.persistentState()
        let result = Result { try body() }
        if let refusal = dataSource.takeRefusal() {
            demo.restore(state: before)
            throw refusal
        }
        return try result.get()
    }

    /// Runs `body` with this write's events held in the outbox under a ticket that `body`
    /// releases once the change is saved (or hands on). `body` throws only what the store
    /// threw: then the list is retired if this write changed it (its events are dropped:
    /// nobody is told of a change that is not saved).
    private func holdingEvents<T: Sendable>(_ storage: ListStorage, _ body: (_ ticket: Int) async throws -> T) async throws -> T {
        let ticket = hold()
        applied.store(false, ordering: .releasing)
        holdingEvents.store(true, ordering: .releasing)
        do {
            let value = try await body(ticket)
            holdingEvents.store(false, ordering: .releasing)
            seal(ticket)
            return value
        } catch {
            holdingEvents.store(false, ordering: .releasing)
            // Changes another process made (a catch-up) are saved already; this write's are not.
            if error is ListStoreError || applied.load(ordering: .acquiring) {
                discard(ticket)
                retire(because: "\(error)", storage: storage)
                throw error as? ListStoreError ?? ListStoreError.saveFailed("\(error)")
            }
            // Nothing of this write to save (a store that could not be read before it ran).
            release(ticket)
            throw error as? ListStoreError ?? ListStoreError.saveFailed("\(error)")
        }
    }

    /// Runs a demo action. A `seq` not newer than the newest one applied for the same
    /// `client` is ignored (the last keystroke wins).
    /// - Returns: the version after the action.
    func perform(_ action: String, parameters: ActionParameters, client: String, seq: Int?) async throws -> (version: Int, report: ActionReport?) {
        return try await write {
            if let seq {
                let stale = self.state.withLock { state -> Bool in
                    if let last = state.newestSeq[client], seq <= last { return true }
                    if state.newestSeq.count > 64, state.newestSeq[client] == nil { state.newestSeq.removeAll() }  // bounded
                    state.newestSeq[client] = seq
                    return false
                }
                if stale { return (self.dataSource.version, nil) }
            }
            let report = try self.demo.performReporting(action, parameters: parameters, on: self.dataSource)
            return (self.dataSource.version, report)
        }
    }

    /// Sets the viewport of pages and of streams that report none.
    func setViewport(_ container: LayoutContainer) {
        state.withLock { $0.container = container }
    }
}
