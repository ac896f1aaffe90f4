import CompositionalLayout
import DiffableDataSources
import Foundation
import Logging
import MicroHTTP
import Synchronization

/// One demo's list in one session: its data source, the streams following it with their
/// windows, and the log of recent events.
///
/// # One writer
/// Every change — an action, an API write, a stream that opens, a window that moves — runs
/// alone through ``writer``, the list's one serialized writer (an async gate: a waiting writer
/// suspends, it does not park a thread). The data source is the one source of truth for the
/// snapshot and its version; nothing here keeps a copy. An apply arrives in ``didApply(_:)``,
/// which builds each stream's event under the state lock and sends after releasing it: the
/// writer gate keeps events in version order.
///
/// # What an event costs
/// The identifiers of the change (shared by every stream, rendered once), plus, per group of
/// streams with the same viewport and held cells, the window: the cells of one screen and the
/// overscan, laid out by ``ListLayout`` without walking the list. See docs/protocol.md.
/// When the change is a shared step (`DataSourceUpdate.transition`: every session typing the
/// same letters), the identifiers, and for demos whose cells are the same in every session the
/// windows too, are made once for all the lists that make it (``TransitionCache``); a stream
/// then costs its event's head and copies of shared bytes (`SharedEventBytes`).
final class LiveList: Sendable {
    let descriptor: DemoDescriptor
    let demo: any Demo
    let dataSource = DiffableDataSource<String, String>()
    let renderer: Renderer
    /// Tags this list's event ids, so that a client of another list's run resyncs.
    let epoch: ListEpoch
    /// Where the list is saved (`nil`: memory only, or a demo that keeps nothing).
    private let storage: ListStorage?
    /// Changes applied but not yet saved, and the events held back until they are.
    private let pending = Mutex(PendingWrites())
    /// Set by a write while it runs: events wait for the save (``write(viewOnly:_:)``).
    private let holdingEvents = Atomic(false)
    /// Set while changes another process made are applied: they are saved already.
    private let replicating = Atomic(false)
    /// Set when the running write applied a change of its own (not a catch-up).
    private let applied = Atomic(false)
    /// Set once a save failed or another process replaced the list: it takes no more writes
    /// (its session makes it again from the store).
    private let retired = Atomic(false)
    /// How long a view-only change may wait to be saved.
    static let viewOnlySaveDelay: Duration = .milliseconds(200)
    /// The one serialized writer (see the type's documentation).
    let writer = AsyncGate()

    /// A stream and what its client holds.
    private struct Follower: Sendable {
        let stream: EventStream
        let id: String
        var window: StreamWindow
        var held: [String: WireFrame] = [:]
        var signature = 0
        /// The newest version the client has; older events are not sent to it.
        var version: Int
    }

    /// Events waiting for their changes to be saved, in the order they were made.
    private struct Outbox: Sendable {
        var entries: [(ticket: Int, sends: [Send], ready: Bool)] = []
        var next = 0
    }
    private let outbox = Mutex(Outbox())

    /// Changes applied since the last save, and (while a write runs) its events.
    private struct PendingWrites: Sendable {
        var changes: [StoredChange] = []
        var sends: [Send] = []
        /// Changeset bytes since the last checkpoint (see ``takePendingWrite()``).
        var bytesSinceCheckpoint = 0
        var checkpointDue = false
        var saveScheduled = false
        /// The demo state last saved (`nil`: unknown, save it).
        var savedState: [String: String]?
    }

    private struct State: Sendable {
        var log: EventLog
        var followers: [ObjectIdentifier: Follower] = [:]
        var byStreamID: [String: ObjectIdentifier] = [:]
        /// The viewport of pages and of streams that name none (the last one reported).
        var container: LayoutContainer
        /// The newest `seq` applied per client, so a late keystroke never overwrites a newer one.
        var newestSeq: [String: Int] = [:]
        /// Layouts of the current version, by viewport.
        var layouts: [LayoutContainer: ListLayout] = [:]
        var layoutsVersion = -1
        /// Window events since the current version (the `.n` of their ids).
        var windowSequence = 0
        /// The HTML each header or footer had at the last apply (to send only real changes).
        var supplementaryHTML: [String: String] = [:]
        /// `GET …/snapshot`'s body for one version: repeated reads cost a copy.
        var snapshotBody: (version: Int, json: [UInt8])?
    }

    private let state: Mutex<State>
    /// Off while the initial snapshot is applied: nobody follows the list yet, so no event is built.
    private let publishing = Atomic(false)

    /// A list with its demo's initial snapshot (version 1), or, with `restoring`, the list as
    /// it was saved (by a previous run of the server, or another process on a shared store):
    /// the same snapshot, version, epoch, demo state and recent events.
    init(descriptor: DemoDescriptor, renderer: Renderer, container: LayoutContainer, logCapacity: Int,
         restoring stored: StoredList? = nil, storage: ListStorage? = nil) {
        self.descriptor = descriptor
        self.demo = descriptor.make()
        self.renderer = renderer
        self.state = Mutex(State(log: EventLog(capacity: logCapacity), container: container))
        let demo = self.demo
        let restored = stored.flatMap { stored -> (Snapshot<String, String>, StoredList)? in
            guard demo.persistsList, stored.version >= 1, let snapshot = try? stored.snapshot() else { return nil }
            demo.restore(state: stored.state)
            return (snapshot, stored)
        }
        epoch = restored.map { ListEpoch(value: $0.1.epoch) } ?? ListEpoch.random()
        if let (_, stored) = restored { pending.withLock { $0.savedState = stored.state } }
        self.storage = demo.persistsList ? storage : nil
        dataSource.addObserver { [weak self] update in self?.didApply(update) }
        if let (snapshot, stored) = restored {
            dataSource.restore(snapshot, version: stored.version)
        } else {
            dataSource.apply(demo.initialSnapshot(), animatingDifferences: false)
        }
        // The list limits, for every write from here on, whoever makes it (``admitted(_:)``).
        dataSource.admission = { APILimits.sizeFailure(of: $0) }
        publishing.store(true, ordering: .releasing)
        // Nobody can have missed the first apply (a first stream gets a snapshot): the log keeps
        // only its version, as the point replays start from; a restored list keeps its events.
        let first = dataSource.version
        state.withLock { state in
            state.log = EventLog(capacity: logCapacity)
            let events = restored?.1.events.filter { $0.version <= first } ?? []
            if events.isEmpty {
                state.log.append(LoggedEvent(id: EventID(version: first), name: "origin", data: "{}"))
            } else {
                for event in events { state.log.append(LoggedEvent(id: EventID(version: event.version), name: event.name, data: event.data)) }
            }
        }
    }

    /// Hands the demo its ``ListHandle`` (it may start writing: a publisher, image loads). Called
    /// once the list is in the store and in its session, so that no write comes first.
    func start() {
        demo.attach(ListHandle(self))
    }

    /// The list as it is saved when first made.
    var storedForm: StoredList {
        let (version, snapshot) = dataSource.versionedSnapshot()
        return StoredList(demo: descriptor.name, version: version, epoch: epoch.value,
                          sections: StoredList.sections(of: snapshot), state: demo.persistentState())
    }

    /// Whether the list is saved (a store is configured and the demo keeps its list).
    var isStored: Bool { storage != nil }

    /// Whether the list takes writes (see ``retired``).
    var isRetired: Bool { retired.load(ordering: .acquiring) }

    // MARK: Reading

    var version: Int { dataSource.version }
    /// The logged events, oldest first (what a reconnecting client can replay).
    var recentEvents: [LoggedEvent] { state.withLock { $0.log.events } }
    var openStreamCount: Int { state.withLock { $0.followers.count } }
    var container: LayoutContainer { state.withLock { $0.container } }

    /// The snapshot and its version, read together.
    func currentSnapshot() -> (version: Int, snapshot: Snapshot<String, String>) { dataSource.versionedSnapshot() }

    /// The current snapshot laid out for `container` (cached per version and viewport).
    func layout(for container: LayoutContainer) -> ListLayout {
        let (version, snapshot) = dataSource.versionedSnapshot()
        return state.withLock { layout(version: version, snapshot: snapshot, container: container, in: &$0) }
    }

    /// Cells meeting `rect` with their HTML, in document order (for server-rendered pages).
    /// A page that asks for a viewport (`?width=…&height=…`) is laid out for it, without
    /// making it the session's: a GET writes nothing.
    func cells(intersecting rect: LayoutRect, limit: Int, container requested: LayoutContainer? = nil)
        -> (cells: [WireCell], contentSize: LayoutPixelSize, status: String) {
        let layout = layout(for: requested ?? container)
        let cells = layout.cells(in: rect).prefix(limit).map { wireCell($0, in: layout.snapshot) }
        return (cells, layout.contentSize, demo.status(of: layout.snapshot))
    }

    /// The cells' HTML of the items at `range` of the list (sections concatenated), for the
    /// no-JavaScript list, of the list's snapshot or of a page preview's.
    /// - Complexity: O(range + sections): items are found by index, not by walking the list.
    func itemHTML(of snapshot: Snapshot<String, String>? = nil, range: Range<Int>) -> [String] {
        let snapshot = snapshot ?? dataSource.snapshot()
        var values: [String] = []
        var start = 0
        for (section, id) in snapshot.sectionIdentifiers.enumerated() {
            let count = (try? snapshot.numberOfItems(inSection: id)) ?? 0
            defer { start += count }
            let local = max(range.lowerBound, start)..<min(range.upperBound, start + count)
            guard !local.isEmpty else { continue }
            for flat in local {
                if let item = snapshot.itemIdentifier(at: IndexPath(item: flat - start, section: section)),
                   let content = demo.cell(for: item) { values.append(renderer.cell(content)) }
            }
        }
        return values
    }

    /// Cells of a snapshot that is not the list's (a page preview), laid out aside for the
    /// list's viewport: nothing of the list is touched.
    func previewCells(of snapshot: Snapshot<String, String>, intersecting rect: LayoutRect, limit: Int,
                      container requested: LayoutContainer? = nil)
        -> (cells: [WireCell], contentSize: LayoutPixelSize) {
        let layout = ListLayout(snapshot: snapshot, layout: demo.layout(), container: requested ?? container)
        return (layout.cells(in: rect).prefix(limit).map { wireCell($0, in: snapshot) }, layout.contentSize)
    }

    /// `GET …/snapshot`'s body, built once per version by `build`.
    func snapshotJSON(_ build: (Int, Snapshot<String, String>) -> [UInt8]) -> [UInt8] {
        let (version, snapshot) = dataSource.versionedSnapshot()
        if let cached = state.withLock({ $0.snapshotBody }), cached.version == version { return cached.json }
        let json = build(version, snapshot)
        state.withLock { state in
            if dataSource.version == version { state.snapshotBody = (version, json) }
        }
        return json
    }

    // MARK: Writing (each through the one writer)

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
    private func write<T: Sendable>(viewOnly: Bool = false, _ body: @Sendable () throws -> T) async throws -> T {
        // A refusal (`body` throws) is the caller's answer, but whatever `body` applied before
        // it threw is saved and shown like any change: the data source did change.
        typealias Commit = (ticket: Int, receipt: SaveReceipt, storage: ListStorage)
        let (result, commit) = try await writer.run { () async throws -> (Result<T, any Error>, Commit?) in
            guard !self.isRetired else { throw ListStoreError.retired }
            guard let storage = self.storage else { return (Result { try self.admitted(body) }, nil) }
            if storage.store.isShared {
                let result = try await self.holdingEvents(storage) { ticket in
                    let result = try await storage.store.write(storage.key, from: self.position) { missed in
                        if let missed { try self.catchUp(missed) }
                        let result = Result { try self.admitted(body) }
                        return (result, self.takePendingWrite())
                    }
                    self.release(ticket)
                    return result
                }
                return (result, nil)
            }
            return try await self.holdingEvents(storage) { ticket in
                let result = Result { try self.admitted(body) }
                if viewOnly {
                    self.release(ticket)
                    self.scheduleDeferredSave()
                    return (result, nil)
                }
                guard let write = self.takePendingWrite() else {
                    self.release(ticket)
                    return (result, nil)
                }
                return (result, (ticket, storage.store.enqueue(storage.key, write), storage))
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

    // MARK: The outbox: events in order, each once its change is saved

    /// Takes a place in the outbox for the events of the write about to run (they collect in
    /// ``PendingWrites/sends`` while it runs).
    private func hold() -> Int {
        outbox.withLock { outbox in
            defer { outbox.next += 1 }
            outbox.entries.append((outbox.next, [], false))
            return outbox.next
        }
    }

    /// Moves the running write's events under its ticket (in the writer: the next write's
    /// events are not made yet).
    private func seal(_ ticket: Int) {
        let sends = pending.withLock { pending in defer { pending.sends.removeAll() }; return pending.sends }
        guard !sends.isEmpty else { return }
        outbox.withLock { outbox in
            if let index = outbox.entries.firstIndex(where: { $0.ticket == ticket }) {
                outbox.entries[index].sends.append(contentsOf: sends)
            }
        }
    }

    /// The write's change is saved: its events may go, after every earlier write's.
    private func markReady(_ ticket: Int) {
        outbox.withLock { outbox in
            if let index = outbox.entries.firstIndex(where: { $0.ticket == ticket }) { outbox.entries[index].ready = true }
            flush(&outbox)
        }
    }

    /// ``seal(_:)`` and ``markReady(_:)``, in the writer.
    private func release(_ ticket: Int) {
        seal(ticket)
        markReady(ticket)
    }

    /// The write's change was not saved: its events are dropped.
    private func discard(_ ticket: Int) {
        outbox.withLock { outbox in
            outbox.entries.removeAll { $0.ticket == ticket }
            flush(&outbox)
        }
    }

    /// Sends events that need no save (a stream's first event, a moved window): at once, or
    /// after the writes still being saved.
    private func send(_ sends: [Send]) {
        guard !sends.isEmpty else { return }
        outbox.withLock { outbox in
            if outbox.entries.isEmpty {
                deliver(sends)
            } else {
                outbox.entries.append((outbox.next, sends, true))
                outbox.next += 1
            }
        }
    }

    /// Delivers the ready events at the head of the outbox (under its lock: in order).
    private func flush(_ outbox: inout Outbox) {
        while let first = outbox.entries.first, first.ready {
            outbox.entries.removeFirst()
            deliver(first.sends)
        }
    }

    private func retire(because reason: String, storage: ListStorage) {
        retired.store(true, ordering: .releasing)
        pending.withLock { $0 = PendingWrites() }
        outbox.withLock { $0.entries.removeAll() }
        storage.logger.error("a list could not be saved and is retired", metadata: ["list": "\(storage.key)", "error": "\(reason)"])
        storage.retired(self)
        closeStreams()
    }

    /// Where this writer stands, for the store.
    private var position: ListPosition { ListPosition(version: dataSource.version, epoch: epoch.value) }

    /// What the changes since the last save add to the store (`nil`: nothing).
    private func takePendingWrite() -> ListWrite? {
        let snapshot = dataSource.snapshot()
        // A checkpoint once the changes since the last one add up to the list's own size: its
        // cost is spread over them, and a restore applies at most about that much.
        let threshold = max(4096, snapshot.numberOfItems * 12)
        let taken = pending.withLock { pending -> (changes: [StoredChange], checkpoint: Bool)? in
            guard !pending.changes.isEmpty else { return nil }
            let checkpoint = pending.checkpointDue || pending.bytesSinceCheckpoint >= threshold
            if checkpoint { pending.bytesSinceCheckpoint = 0 }
            defer {
                pending.changes.removeAll()
                pending.checkpointDue = false
            }
            return (pending.changes, checkpoint)
        }
        guard let taken, let last = taken.changes.last else { return nil }
        let state = demo.persistentState()
        let stateChanged = pending.withLock { pending in
            defer { pending.savedState = state }
            return pending.savedState != state
        }
        return ListWrite(version: last.version, epoch: epoch.value, changes: taken.changes, state: state, stateChanged: stateChanged,
                         checkpoint: taken.checkpoint ? StoredList.sections(of: snapshot) : nil)
    }

    /// Saves a view-only change within ``viewOnlySaveDelay`` (the newest of a burst together).
    private func scheduleDeferredSave() {
        let schedule = pending.withLock { pending -> Bool in
            defer { pending.saveScheduled = true }
            return !pending.saveScheduled && !pending.changes.isEmpty
        }
        guard schedule else { return }
        // Holds the list until it is saved: a list is made again from the store only once no
        // copy of it is alive (``LiveListTable``), so nothing it was told is lost.
        Task {
            try? await Task.sleep(for: Self.viewOnlySaveDelay)
            await self.flushPendingSave()
        }
    }

    /// Writes deferred changes now (through the writer, so in order with every other save).
    func flushPendingSave() async {
        _ = try? await writer.run {
            let pendingChanges = self.pending.withLock { pending in
                pending.saveScheduled = false
                return !pending.changes.isEmpty
            }
            guard pendingChanges, let storage = self.storage, !self.isRetired, let write = self.takePendingWrite() else { return }
            do {
                try await storage.store.enqueue(storage.key, write).wait()
            } catch {
                self.retire(because: "\(error)", storage: storage)
            }
        }
    }

    /// Applies what other processes wrote (a notification from the shared store), in order
    /// with this process's writes.
    func refresh() async {
        _ = try? await writer.run {
            guard let storage = self.storage, storage.store.isShared, !self.isRetired else { return }
            do {
                guard let missed = try await storage.store.catchUp(storage.key, from: self.position) else { return }
                try self.catchUp(missed)
            } catch {
                self.retire(because: "\(error)", storage: storage)
            }
        }
    }

    /// Brings the data source and the demo to what the store has: the changes applied as one
    /// (each stream gets one changeset), their events logged under their own versions.
    private func catchUp(_ missed: ListCatchUp) throws {
        let (version, state, events, snapshot): (Int, [String: String], [StoredEvent], Snapshot<String, String>)
        switch missed {
        case .changes(let changes, let to, let stored):
            var current = dataSource.snapshot()
            for change in changes {
                guard let text = change.changeset else { throw ListStoreError.replaced }
                current = try current.applying(StoredChangeset.decode(text))
            }
            (version, state, events, snapshot) = (to, stored, changes.map(\.event), current)
        case .list(let stored):
            // Another run of the list (another epoch), or more than the store keeps: this copy
            // is retired and made again from the store.
            guard stored.epoch == epoch.value else { throw ListStoreError.replaced }
            (version, state, events, snapshot) = (stored.version, stored.state, stored.events, try stored.snapshot())
        }
        guard version > dataSource.version else { return }
        demo.restore(state: state)
        replicating.store(true, ordering: .releasing)
        defer { replicating.store(false, ordering: .releasing) }
        dataSource.apply(snapshot, asVersion: version)
        self.state.withLock { state in
            for event in events where event.version > (state.log.latest?.version ?? 0) {
                state.log.append(LoggedEvent(id: EventID(version: event.version), name: event.name, data: event.data))
            }
        }
    }

    /// Runs a demo action. A `seq` not newer than the newest one applied for the same
    /// `client` is ignored (the last keystroke wins).
    /// - Returns: the version after the action.
    func perform(_ action: String, parameters: ActionParameters, client: String, seq: Int?) async throws -> (version: Int, report: ActionReport?) {
        let viewOnly = descriptor.actions.first { $0.name == action }?.viewOnly ?? false
        return try await write(viewOnly: viewOnly) {
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

    /// Moves stream `streamID`'s window and sends it a `window` event with what entered and
    /// left. - Returns: `false` when there is no such stream.
    @discardableResult
    func moveWindow(streamID: String, to window: StreamWindow) async -> Bool {
        (try? await writer.run { self.sendWindow(streamID: streamID, window: window) }) ?? false
    }

    // MARK: Following

    /// Starts a stream with its viewport: replays what the client missed since `lastEventID`
    /// (identifiers only) and then its window afresh, or sends a `snapshot`; then every later
    /// event. The first event is sent by the writer, in order with every other.
    func attach(_ stream: EventStream, window: StreamWindow?, lastEventID: String?) {
        stream.onClose { [weak self, weak stream] _ in
            guard let self, let stream else { return }
            let closed = self.state.withLock { state -> (count: Int, id: String)? in
                guard let follower = state.followers.removeValue(forKey: ObjectIdentifier(stream)) else { return nil }
                state.byStreamID[follower.id] = nil
                return (state.followers.count, follower.id)
            }
            guard let closed else { return }
            self.demo.streamCountDidChange(closed.count)
            self.reportClosed([closed.id])
        }
        Task {
            try? await writer.run { self.open(stream, window: window, lastEventID: lastEventID) }
        }
    }

    /// Closes every stream (their clients reconnect and resync).
    func closeStreams() {
        let followers = state.withLock { state in
            defer { state.followers.removeAll(); state.byStreamID.removeAll() }
            return Array(state.followers.values)
        }
        for follower in followers { follower.stream.close() }
        guard !followers.isEmpty else { return }
        demo.streamCountDidChange(0)
        reportClosed(followers.map(\.id))
    }

    /// Sends a comment to every stream, so proxies keep idle connections open.
    func heartbeat() {
        let streams = state.withLock { $0.followers.values.map(\.stream) }
        for stream in streams { _ = stream.heartbeat() }
    }

    // MARK: The generic path: apply → changeset → one event per window

    private typealias Send = (stream: EventStream, name: String, id: String, data: EventData)

    private func open(_ stream: EventStream, window requested: StreamWindow?, lastEventID: String?) {
        let (version, snapshot) = dataSource.versionedSnapshot()
        let (sends, count, held, streamID) = state.withLock { state -> ([Send], Int, [String: WireFrame], String) in
            guard stream.isOpen else { return ([], 0, [:], "") }
            let window = requested ?? StreamWindow(container: state.container, top: 0)
            var follower = Follower(stream: stream, id: RandomHex.digits(16), window: window, version: version)
            let layout = layout(version: version, snapshot: snapshot, container: window.container, in: &state)
            var sends: [Send] = []
            if let lastEventID, let id = epoch.parse(lastEventID), let missed = missedEvents(after: id, version: version, state: state) {
                for event in missed { sends.append((stream, event.name, epoch.wire(event.id), event.data)) }
                state.windowSequence += 1
                let update = WindowUpdate(layout: layout, rect: window.rect, held: [:]) { wireCell($0, in: snapshot).html }
                let eventID = EventID(version: version, layout: state.windowSequence)
                sends.append((stream, "window", epoch.wire(eventID),
                              EventData(windowJSON(version: version, streamID: follower.id, window: window, layout: layout, update: update, reset: true))))
                follower.held = update.held
            } else {
                let cells = layout.cells(in: window.rect)
                for cell in cells { follower.held[cell.id] = WireFrame(cell.frame) }
                let json = snapshotEventJSON(version: version, streamID: follower.id, snapshot: snapshot, layout: layout,
                                             cells: cells.map { wireCell($0, in: snapshot) })
                sends.append((stream, "snapshot", epoch.wire(currentID(version, state)), EventData(json)))
            }
            follower.signature = WindowUpdate.signature(of: follower.held)
            state.followers[ObjectIdentifier(stream)] = follower
            state.byStreamID[follower.id] = ObjectIdentifier(stream)
            // The headers and footers as this client now has them: the next apply compares
            // with these. (While nobody follows, applies record nothing, so without this the
            // first change after a stream opens would find no earlier HTML and send no update:
            // a header's count would stay stale until the change after.)
            for cell in layout.supplementaryCells { state.supplementaryHTML[cell.id] = wireCell(cell, in: snapshot).html }
            return (sends, state.followers.count, follower.held, follower.id)
        }
        send(sends)
        guard count > 0 else { return }
        demo.streamCountDidChange(count)
        reportWindows([(streamID, held)], snapshot: snapshot)
    }

    /// Tells a demo that observes windows what they hold now (outside the state lock).
    /// - Complexity: O(cells held · index lookup).
    private func reportWindows(_ windows: [(stream: String, held: [String: WireFrame])], snapshot: Snapshot<String, String>) {
        guard demo.observesWindows else { return }
        for (stream, held) in windows {
            var items: [String] = []
            var last: Int?
            for id in held.keys {
                guard let position = snapshot.indexOfItem(id) else { continue }
                items.append(id)
                last = max(last ?? position, position)
            }
            demo.windowDidChange(WindowItems(stream: stream, items: items, lastPosition: last, itemCount: snapshot.numberOfItems))
        }
    }

    /// A closed stream's window is empty: a demo stops what it did for it (prefetches).
    private func reportClosed(_ streams: [String]) {
        guard demo.observesWindows else { return }
        let count = dataSource.snapshot().numberOfItems
        for stream in streams { demo.windowDidChange(WindowItems(stream: stream, items: [], lastPosition: nil, itemCount: count)) }
    }

    /// The logged events after `id`, or `nil` when the client must start from a snapshot.
    private func missedEvents(after id: EventID, version: Int, state: State) -> [LoggedEvent]? {
        if id.version == version { return [] }
        guard let missed = state.log.events(after: EventID(version: id.version)) else { return nil }
        // A reloadData cannot be replayed as identifiers: start again.
        return missed.contains { $0.name != "changeset" } ? nil : missed
    }

    private func sendWindow(streamID: String, window: StreamWindow) -> Bool {
        let (version, snapshot) = dataSource.versionedSnapshot()
        let result = state.withLock { state -> (found: Bool, sends: [Send], held: [String: WireFrame]) in
            guard let key = state.byStreamID[streamID], var follower = state.followers[key] else { return (false, [], [:]) }
            guard follower.window != window else { return (true, [], [:]) }
            // A new size may change the content size even when no held cell moves (a resize
            // while scrolled past the end): the client's scrollbar must follow, so it is told.
            let resized = follower.window.container != window.container
            follower.window = window
            let layout = layout(version: version, snapshot: snapshot, container: window.container, in: &state)
            let update = WindowUpdate(layout: layout, rect: window.rect, held: follower.held) { wireCell($0, in: snapshot).html }
            follower.held = update.held
            follower.signature = WindowUpdate.signature(of: update.held)
            state.followers[key] = follower
            guard resized || !update.cells.isEmpty || !update.left.isEmpty || !update.dropped.isEmpty else { return (true, [], [:]) }
            state.windowSequence += 1
            let json = windowJSON(version: version, streamID: follower.id, window: window, layout: layout, update: update, reset: false)
            return (true, [(follower.stream, "window", epoch.wire(EventID(version: version, layout: state.windowSequence)), EventData(json))], update.held)
        }
        send(result.sends)
        if !result.sends.isEmpty { reportWindows([(streamID, result.held)], snapshot: snapshot) }
        return result.found
    }

    private func didApply(_ update: DataSourceUpdate<String, String>) {
        guard publishing.load(ordering: .acquiring) else { return }
        let replica = replicating.load(ordering: .acquiring)
        if !replica { applied.store(true, ordering: .releasing) }
        var windows: [(stream: String, held: [String: WireFrame])] = []
        let sends = state.withLock { state -> [Send] in
            state.snapshotBody = nil
            state.windowSequence = 0
            let snapshot = update.snapshot
            let status = demo.status(of: snapshot)
            let viewState = demo.pageValues()
            let details = demo.details(of: snapshot)
            let eventID = EventID(version: update.version)

            if update.kind == .reloadData {
                // Nothing to animate and nothing to replay: every stream starts again.
                if !replica { state.log.append(LoggedEvent(id: eventID, name: "snapshot", data: "{}")) }
                if storage != nil, !replica {
                    pending.withLock { pending in
                        pending.changes.append(StoredChange(event: StoredEvent(version: update.version, name: "snapshot", data: "{}"), changeset: nil))
                        pending.checkpointDue = true
                    }
                }
                var sends: [Send] = []
                for (key, var follower) in state.followers {
                    let layout = layout(version: update.version, snapshot: snapshot, container: follower.window.container, in: &state)
                    let cells = layout.cells(in: follower.window.rect)
                    follower.held = Dictionary(uniqueKeysWithValues: cells.map { ($0.id, WireFrame($0.frame)) })
                    follower.signature = WindowUpdate.signature(of: follower.held)
                    follower.version = update.version
                    state.followers[key] = follower
                    let json = snapshotEventJSON(version: update.version, streamID: follower.id, snapshot: snapshot, layout: layout,
                                                 cells: cells.map { wireCell($0, in: snapshot) })
                    sends.append((follower.stream, "snapshot", epoch.wire(eventID), EventData(json)))
                }
                return sends
            }

            let changes = update.changeset
            // What every stream shares: the version and status, then the identifiers (written
            // once per shared transition for every list that makes it, see TransitionCache).
            let head = changesetHead(update, status: status, details: details, state: viewState)
            let ids = changesetIDs(update)
            if !replica {
                let data = EventData(head: head, shared: [ids], tail: "}")
                state.log.append(LoggedEvent(id: eventID, name: "changeset", data: data))
                if storage != nil {
                    // As stored: the same text for every list making a shared step.
                    let changeset = update.transition.map { transition in
                        TransitionCache.shared.storedChangeset(for: transition) { StoredChangeset.encode(changes) }
                    } ?? StoredChangeset.encode(changes)
                    pending.withLock { pending in
                        pending.changes.append(StoredChange(event: StoredEvent(version: update.version, name: "changeset", data: data.text),
                                                            changeset: changeset))
                        pending.bytesSinceCheckpoint += changeset.utf8.count
                    }
                }
            }
            guard !state.followers.isEmpty else { return [] }

            // Contents that changed: reconfigured or reloaded items (and items of reloaded
            // sections), and headers or footers whose HTML is not what it was.
            var contentChange: [String: Bool] = [:]
            for change in changes.itemReconfigures { contentChange[change.id] = false }
            for change in changes.itemReloads { contentChange[change.id] = true }
            let reloadedSections = Set(changes.sectionReloads.map(\.id))
            var rendered: [TransitionCache.WindowKey: TransitionCache.Window] = [:]
            var sends: [Send] = []
            var supplementariesChecked = false
            for (key, var follower) in state.followers where follower.version < update.version {
                let layout = layout(version: update.version, snapshot: snapshot, container: follower.window.container, in: &state)
                if !supplementariesChecked {
                    supplementariesChecked = true
                    for cell in layout.supplementaryCells {
                        let html = wireCell(cell, in: snapshot).html
                        if let previous = state.supplementaryHTML[cell.id], previous != html { contentChange[cell.id] = false }
                        state.supplementaryHTML[cell.id] = html
                    }
                }
                let group = TransitionCache.WindowKey(window: follower.window, signature: follower.signature)
                let make = { () -> TransitionCache.Window in
                    let window = WindowUpdate(
                        layout: layout, rect: follower.window.rect, held: follower.held,
                        // A held item the new snapshot lacks was deleted: an O(1) index lookup,
                        // rather than a set of every deleted id (a search may delete thousands).
                        // Headers and footers (`header:<section>`) are never items; an item
                        // id may contain a colon too (a URL), so ask the layout.
                        isDeleted: { !snapshot.contains(item: $0) && layout.cell($0) == nil },
                        contentChange: { id in
                            if let change = contentChange[id] { return change }
                            if !reloadedSections.isEmpty, let section = snapshot.sectionIdentifier(containingItem: id),
                               reloadedSections.contains(section) { return true }
                            return nil
                        },
                        html: { self.wireCell($0, in: snapshot).html })
                    return TransitionCache.Window(tail: SharedEventBytes(self.windowTail(layout: layout, update: window)), held: window.held,
                                                  signature: WindowUpdate.signature(of: window.held))
                }
                let result: TransitionCache.Window
                if let done = rendered[group] {
                    result = done
                } else if let transition = update.transition, demo.sharesCellContent, layout.supplementaryCells.isEmpty {
                    // The same step from the same window in another session: the same bytes.
                    result = TransitionCache.shared.window(for: transition, group, make: make)
                    rendered[group] = result
                } else {
                    result = make()
                    rendered[group] = result
                }
                follower.held = result.held
                follower.signature = result.signature
                follower.version = update.version
                state.followers[key] = follower
                sends.append((follower.stream, "changeset", epoch.wire(eventID), EventData(head: head, shared: [ids, result.tail])))
                if demo.observesWindows { windows.append((follower.id, result.held)) }
            }
            return sends
        }
        if holdingEvents.load(ordering: .acquiring) {
            pending.withLock { $0.sends.append(contentsOf: sends) }
        } else {
            send(sends)
        }
        reportWindows(windows, snapshot: update.snapshot)
    }

    /// Sends outside the state lock (the outbox keeps the order); drops streams that closed.
    private func deliver(_ sends: [Send]) {
        var gone: [ObjectIdentifier] = []
        for send in sends where !send.stream.send(event: send.name, id: send.id, data: send.data) {
            gone.append(ObjectIdentifier(send.stream))
        }
        guard !gone.isEmpty else { return }
        let (count, closed) = state.withLock { state -> (Int, [String]) in
            var closed: [String] = []
            for key in gone {
                if let follower = state.followers.removeValue(forKey: key) {
                    state.byStreamID[follower.id] = nil
                    closed.append(follower.id)
                }
            }
            return (state.followers.count, closed)
        }
        guard !closed.isEmpty else { return }
        demo.streamCountDidChange(count)
        reportClosed(closed)
    }

    // MARK: Building

    private func layout(version: Int, snapshot: Snapshot<String, String>, container: LayoutContainer, in state: inout State) -> ListLayout {
        if state.layoutsVersion != version {
            state.layouts.removeAll(keepingCapacity: true)
            state.layoutsVersion = version
        }
        if let cached = state.layouts[container] { return cached }
        let layout = ListLayout(snapshot: snapshot, layout: demo.layout(), container: container)
        if state.layouts.count >= 8 { state.layouts.removeAll(keepingCapacity: true) }
        state.layouts[container] = layout
        return layout
    }

    /// A cell with its frame and HTML (rendered once per content, shared by every session).
    private func wireCell(_ cell: ListLayout.Cell, in snapshot: Snapshot<String, String>) -> WireCell {
        let content = cell.kind == .item ? demo.cell(for: cell.id) : demo.supplementary(kind: cell.kind, section: cell.section, in: snapshot)
        return WireCell(id: cell.id, kind: cell.kind, section: cell.section, index: cell.index, frame: WireFrame(cell.frame),
                        html: content.map(renderer.cell) ?? "")
    }

    private func currentID(_ version: Int, _ state: State) -> EventID { EventID(version: version, layout: state.windowSequence) }

    /// The start of a changeset event's object: its version, whether it animates, the status
    /// and the demo's view state.
    private func changesetHead(_ update: DataSourceUpdate<String, String>, status: String, details: String, state: [String: String]) -> String {
        var writer = JSONWriter(capacity: 96 + status.utf8.count + details.utf8.count)
        writer.raw("{\"version\":"); writer.int(update.version)
        writer.raw(",\"animated\":"); writer.bool(update.animatingDifferences)
        writer.raw(",\"status\":"); writer.string(status)
        writer.details(details)
        writer.viewState(state)
        return writer.text
    }

    /// The identifiers of a change (`"deleted"`, `"inserted"`, `"moved"`, and `"sections"` when
    /// they changed), which every stream shares: written once per shared transition.
    private func changesetIDs(_ update: DataSourceUpdate<String, String>) -> SharedEventBytes {
        guard let transition = update.transition else { return Self.writeIDs(update) }
        return TransitionCache.shared.ids(for: transition) { Self.writeIDs(update) }
    }

    private static func writeIDs(_ update: DataSourceUpdate<String, String>) -> SharedEventBytes {
        let changes = update.changeset
        let allSections = update.snapshot.sectionIdentifiers  // a few: sections are bounded
        let sectionsChanged = !(changes.sectionInsertions.isEmpty && changes.sectionDeletions.isEmpty && changes.sectionMoves.isEmpty)
        let sectionName: (Int) -> String = { index in index >= 0 && index < allSections.count ? allSections[index] : "" }
        var writer = JSONWriter(capacity: 64 + (changes.itemDeletions.count + changes.itemInsertions.count + changes.itemMoves.count) * 24)
        writer.raw(",\"deleted\":"); writer.array(changes.itemDeletions) { $0.string($1.id) }
        writer.raw(",\"inserted\":")
        writer.runs(changes.itemInsertions.lazy.map { ($0.id, $0.indexPath.section, $0.indexPath.item) }, sectionName: sectionName)
        writer.raw(",\"moved\":")
        writer.runs(changes.itemMoves.lazy.map { ($0.id, $0.to.section, $0.to.item) }, sectionName: sectionName)
        if sectionsChanged {
            writer.raw(",\"sections\":"); writer.array(allSections) { $0.string($1) }
        }
        return SharedEventBytes(writer.bytes)
    }

    /// A stream's part of a changeset, closing the object.
    private func windowTail(layout: ListLayout, update: WindowUpdate) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + update.cells.count * 160)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.orthogonal(layout.orthogonalSections)
        writer.raw(",\"cells\":"); writer.windowCells(update.cells)
        writer.raw(",\"left\":"); writer.left(update)
        writer.raw(",\"updated\":"); writer.updates(update.updated)
        writer.raw("}")
        return writer.bytes
    }

    private func windowJSON(version: Int, streamID: String, window: StreamWindow, layout: ListLayout, update: WindowUpdate, reset: Bool) -> String {
        var writer = JSONWriter(capacity: 96 + update.cells.count * 160)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"stream\":"); writer.string(streamID)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.raw(",\"top\":"); writer.number(window.top)
        writer.raw(",\"reset\":"); writer.bool(reset)
        writer.orthogonal(layout.orthogonalSections)
        writer.raw(",\"cells\":"); writer.windowCells(update.cells)
        writer.raw(",\"left\":"); writer.left(update)
        writer.raw("}")
        return writer.text
    }

    private func snapshotEventJSON(version: Int, streamID: String, snapshot: Snapshot<String, String>, layout: ListLayout, cells: [WireCell]) -> String {
        var writer = JSONWriter(capacity: 128 + snapshot.numberOfItems * 12 + cells.count * 160)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"stream\":"); writer.string(streamID)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.raw(",\"status\":"); writer.string(demo.status(of: snapshot))
        writer.details(demo.details(of: snapshot))
        writer.viewState(demo.pageValues())
        writer.raw(",\"sections\":")
        writer.array(layout.sectionIDs) { w, section in
            w.raw("{\"id\":"); w.string(section)
            w.raw(",\"items\":"); w.array((try? snapshot.itemIdentifiers(inSection: section)) ?? []) { $0.string($1) }
            w.raw("}")
        }
        writer.orthogonal(layout.orthogonalSections)
        writer.raw(",\"cells\":"); writer.array(cells) { $0.cell($1) }
        writer.raw("}")
        return writer.text
    }
}

extension JSONWriter {
    /// `"details"`: the list's counters (``Demo/details(of:)``), omitted when it has none.
    mutating func details(_ text: String) {
        guard !text.isEmpty else { return }
        raw(",\"details\":"); string(text)
    }

    /// `"state"`: the demo's view state (``Demo/pageValues()``: a layout, a query, whether a
    /// publisher is paused), so that a page's controls show a change a script made. Omitted
    /// when the demo has none.
    mutating func viewState(_ values: [String: String]) {
        guard !values.isEmpty else { return }
        raw(",\"state\":{")
        for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { raw(",") }
            string(key); raw(":"); string(value)
        }
        raw("}")
    }

    /// `left`: held cells that left the window (with their new frame), then those gone (id only).
    mutating func left(_ update: WindowUpdate) {
        raw("[")
        var first = true
        for move in update.left {
            if !first { raw(",") }
            first = false
            raw("{\"id\":"); string(move.id); raw(",\"frame\":"); frame(move.frame); raw("}")
        }
        for id in update.dropped {
            if !first { raw(",") }
            first = false
            raw("{\"id\":"); string(id); raw("}")
        }
        raw("]")
    }
}
