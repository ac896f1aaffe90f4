import CompositionalLayout
import DiffableDataSources
import Synchronization

// A write, start to save: alone through the list's writer, with a transaction as its only
// handle to the data source, kept within the list limits, published once it has returned, and
// saved before it answers (see the type's documentation).
extension LiveList {
    /// Runs a write (a demo's own, through its ``ListHandle``).
    func exclusive<T: Sendable>(_ body: @Sendable (ListTransaction) throws -> T) async throws -> T {
        try await write(body)
    }

    /// Runs a script's write of the list's items (`PUT …/snapshot`, operations): a list derived
    /// from its demo's state becomes an ordinary list (``Demo/didEditList()``).
    func edit<T: Sendable>(_ body: @Sendable (ListTransaction) throws -> T) async throws -> T {
        try await write(edit: true, body)
    }

    /// The one way a change reaches the data source: alone among this list's writers (and, on
    /// a shared store, among every process's, caught up first with what the others wrote);
    /// published once `body` has returned; saved before it returns, so before its request is
    /// answered. Its events go out once it is saved, in version order with every other event.
    ///
    /// On the embedded store the save is a group commit: the write hands its change to the
    /// store's thread and lets the next writer in while it commits; changes that queue up
    /// meanwhile commit together.
    /// - Throws: what `body` threw (whatever it applied before is saved and shown like any
    ///   change: the data source did change), or ``ListStoreError`` when the save failed: the
    ///   list is then retired, and its session makes it again from what the store has
    ///   (``ListStoreError/lostRace(_:)``: another process saved first; the request may run
    ///   again on the list made again).
    private func write<T: Sendable>(edit: Bool = false, _ body: @Sendable (ListTransaction) throws -> T) async throws -> T {
        try await Spans.traced("list write", list: name) { try await writeUntraced(edit: edit, body) }
    }

    private func writeUntraced<T: Sendable>(edit: Bool, _ body: @Sendable (ListTransaction) throws -> T) async throws -> T {
        typealias Saving = (ticket: EventOutbox<Send>.Ticket, receipt: SaveReceipt, storage: ListStorage)
        // On its way from before it waits for the writer (from the start of its request, when
        // the request announced it): a store committing in groups waits for it.
        let incoming = storage == nil ? nil : IncomingWrite.claimRequest() ?? storage?.store.announceWrite()
        let (result, saving) = try await writer.run { () async throws -> (Result<T, any Error>, Saving?) in
            defer { incoming?.settle() }
            guard !self.isRetired else { throw ListStoreError.retired }
            let ticket = self.outbox.hold()
            guard let storage = self.storage else {
                let (result, publication) = try self.run(body, edit: edit, missed: nil)
                Spans.traced("publish", list: self.name) { self.commit(publication, ticket: ticket) }
                self.outbox.ready(ticket)
                return (result, nil)
            }
            // Taken only when the store asks (a write it may take back): a copy kept for nothing
            // would make the write's changes copy what they touch.
            var before: UndoPoint?
            let position = self.position
            do {
                let ((result, publication), receipt) = try await Spans.traced("store save", list: self.name) {
                    try await storage.store.write(storage.key, from: position, { missed in
                        let (result, publication) = try self.run(body, edit: edit, missed: missed)
                        return ((result, publication), self.storedWrite(of: publication))
                    }, undo: { step in
                        switch step {
                        case .mark: before = UndoPoint(self)
                        case .restore: before?.restore(self)
                        }
                    })
                }
                Spans.traced("publish", list: self.name) { self.commit(publication, ticket: ticket) }
                return (result, (ticket, receipt, storage))
            } catch {
                self.outbox.discard(ticket)
                self.collected.withLock { $0.removeAll() }
                // Changed but not saved: nobody is told, and the list is made again from the store.
                if self.dataSource.version != position.version || error is ListStoreError {
                    self.retire(because: "\(error)", storage: storage)
                }
                throw error as? ListStoreError ?? ListStoreError.saveFailed("\(error)")
            }
        }
        if let (ticket, receipt, storage) = saving {
            // The request answers once this is saved, through a promise (``SaveDeferral``):
            // the events go out first, then the answer, from the thread that saved it.
            if !receipt.mayLoseRace, !receipt.isComplete, let deferral = SaveDeferral.forCurrentTask,
               deferral.add(receipt, first: { [self] outcome in
                   switch outcome {
                   case .success:
                       outbox.ready(ticket)
                   case .failure(let error):
                       outbox.discard(ticket)
                       retire(because: "\(error)", storage: storage)
                   }
               }) {
                return try applied(result)
            }
            do {
                try await Spans.traced("store save", list: name) { try await receipt.wait() }
                outbox.ready(ticket)
            } catch {
                outbox.discard(ticket)
                retire(because: "\(error)", storage: storage)
                if case ListStoreError.lostRace = error { throw error }  // the request may run again
                throw ListStoreError.saveFailed("\(error)")
            }
        }
        return try applied(result)
    }

    /// A write's result, counted (`diffableweb_list_writes_total`) when it succeeded.
    private func applied<T>(_ result: Result<T, any Error>) throws -> T {
        let value = try result.get()
        WebMetrics.listWritten(name)
        return value
    }

    /// Catches up (when given what another process wrote), runs `body` in a transaction that
    /// ends when it returns, and publishes what both applied.
    /// - Throws: only when the catch-up failed (the list was made again by another process).
    private func run<T>(_ body: (ListTransaction) throws -> T, edit: Bool, missed: ListCatchUp?) throws
        -> (Result<T, any Error>, Publication) {
        if let missed { try catchUp(missed) }
        let replicated = takeCollected()
        let transaction = ListTransaction(dataSource)
        let result = Result { try admitted(edit: edit) { try body(transaction) } }
        transaction.end()
        let own = takeCollected()
        if edit, !own.isEmpty { demo.didEditList() }
        if isSelectable, !replicated.isEmpty || !own.isEmpty { demo.reconcileSelection(with: replicated + own, snapshot: dataSource.snapshot()) }
        chargeMemory(of: replicated + own)
        return (result, publish(replicated: replicated, own: own, derived: storage != nil && demo.derivesList))
    }

    /// Runs a write's `body` and, when the data source refused one of its applies (it would
    /// break the list limits: `APILimits.sizeFailure(of:)`), throws why (`422 list_too_large`)
    /// with the demo's state as it was before: the refused apply changed nothing, streamed
    /// nothing and saved nothing, and neither did any apply after it in `body`.
    ///
    /// A write that would take its session past its memory budget, or the server past its
    /// own, is undone as a whole and throws ``MemoryBudgetError`` (`+Memory`).
    private func admitted<T>(edit: Bool, _ body: () throws -> T) throws -> T {
        let before = checkpointDemo()
        let undo = memory.account != nil ? dataSource.versionedSnapshot() : nil
        let result = Result { try body() }
        if let refusal = dataSource.takeRefusal() {
            restoreDemo(before)
            throw refusal
        }
        if let undo { try checkMemory(undoing: undo, demoState: before, edit: edit) }
        return try result.get()
    }

    /// The demo's state as a write finds it (its value when it keeps one: no encoding).
    func checkpointDemo() -> DemoCheckpoint {
        keepsValue?.checkpoint() ?? .saved(demo.persistentState())
    }

    /// Puts back the demo's state from ``checkpointDemo()``.
    func restoreDemo(_ checkpoint: DemoCheckpoint) {
        switch checkpoint {
        case .saved(let state): demo.restore(state: state)
        case .kept: keepsValue?.restore(checkpoint)
        }
    }

    /// Runs a demo action. A `seq` not newer than the newest one applied for the same
    /// `client` is ignored (the last keystroke wins).
    /// - Returns: the version after the action.
    func perform(_ action: String, parameters: ActionParameters, client: String, seq: Int?) async throws -> (version: Int, report: ActionReport?) {
        try await write { list in
            if let seq, self.isStale(seq: seq, client: client) { return (list.version, nil) }
            let report = try self.demo.performReporting(action, parameters: parameters, on: list)
            return (list.version, report)
        }
    }

    /// Sets the viewport of pages and of streams that report none.
    func setViewport(_ container: LayoutContainer) {
        state.withLock { $0.container = container }
    }
}

/// The list as a write found it, for a store that undoes an optimistic write (another process
/// wrote first): the snapshot and version, the demo's state and what the saves left behind.
struct UndoPoint: Sendable {
    let version: Int
    let snapshot: Snapshot<String, String>
    let demoState: DemoCheckpoint
    let saving: SaveState
    let memoryContents: Int

    init(_ list: LiveList) {
        (version, snapshot) = list.dataSource.versionedSnapshot()
        demoState = list.checkpointDemo()
        saving = list.saving.withLock { $0 }
        memoryContents = list.memory.contents
    }

    func restore(_ list: LiveList) {
        list.dataSource.restore(snapshot, version: version)
        list.restoreDemo(demoState)
        list.saving.withLock { $0 = saving }
        list.memory.setContents(memoryContents)
        list.collected.withLock { $0.removeAll() }
        // The undone version's number will be used again, by another snapshot.
        list.layouts.removeAll()
        list.state.withLock { $0.snapshotBody = nil }
    }
}
