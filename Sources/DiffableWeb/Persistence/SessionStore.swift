import Synchronization

/// Where sessions outlive the process: the embedded SQLite file (`SQLiteSessionStore`, the
/// default) or a PostgreSQL database that several server processes share
/// (`PostgresSessionStore`, in DiffableWebPostgres).
///
/// # What is kept
/// A session's two ids; per list its version, event epoch and demo state, the identifiers of a
/// recent version (a *checkpoint*), and every change since (``StoredChange``: what
/// `Snapshot.applying(_:)` needs, plus the event a reconnecting client replays). A write
/// costs what it changed: a checkpoint is written only once the changes since the last one
/// add up to about the list's own size, so its cost is spread over them.
///
/// # Who writes, and how it is saved
/// Each list has one writer per process (`LiveList`'s `ListWriter`). How its writes are
/// saved is the store's strategy, behind one call, ``write(_:from:_:undo:)``:
/// - the embedded store (SQLite, one process) **commits in groups**: the write is applied at
///   once and handed to the store's own thread; the writer goes on with the next change while
///   it commits, and the change's events go out once the returned receipt says it is saved;
/// - a shared store (PostgreSQL, several processes) **saves optimistically, and locks and
///   catches up on a conflict**: the change is saved with a compare-and-swap on the list's
///   version (one round trip); when another process wrote first, the store undoes the local
///   change, takes the list's row lock, hands the body what it missed, and runs it again.
/// Nothing in the live layer asks which kind of store it has.
public protocol SessionStore: Sendable {
    func session(id: SessionID) async throws -> StoredSession?
    func session(shareID: SessionID) async throws -> StoredSession?
    func saveSession(id: SessionID, shareID: SessionID) async throws
    func deleteSession(id: SessionID) async throws
    /// Deletes sessions that no process wrote or kept alive for `idle` (a shared store:
    /// another process may still be serving a session this one let go).
    func deleteSessions(idleFor idle: Duration) async throws -> Int
    /// Marks sessions as in use now (a shared store: sessions someone watches, so that no
    /// process deletes them as idle; the default does nothing).
    func touchSessions(_ ids: [SessionID]) async throws

    /// A list as last saved: the identifiers at its version (checkpoint plus changes), its
    /// state and its recent events.
    func list(_ key: ListKey) async throws -> StoredList?
    /// Saves a new list (`list.version` is its first version). - Returns: `nil` when saved, or
    /// the list another process saved first (which then wins).
    func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList?
    /// Saves one write of a list, as this store does (see "Who writes" above).
    ///
    /// `body` applies the change (after the changes other processes made since `local`, when
    /// it is given them) and returns its value and what to save (`nil`: nothing changed). A
    /// store that may have to take a write back (an optimistic save that can lose to another
    /// process's) calls `undo(.mark)` before it runs `body`; when the save lost, `undo(.restore)`
    /// puts the list back as it was then, and `body` runs again after the catch-up. A store
    /// that never takes a write back never calls `undo`, and the list keeps no copy for it.
    /// An error `body` throws is rethrown as it is, and nothing is saved.
    /// - Returns: `body`'s value, and what to wait for before the change counts as saved (its
    ///   events go out then; a store that saved already returns a completed receipt).
    func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                            _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt)
    /// What a writer at `local` missed (another process wrote since), or `nil` when nothing.
    /// A store only one process writes answers `nil` at once, without reading anything.
    func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp?
    /// Tells the store that a write is on its way: called as a request that may write starts,
    /// or before a write waits for its list's writer, and settled once
    /// ``write(_:from:_:undo:)`` has returned (or the write came to nothing). A store that
    /// commits in groups holds a write while others are on their way, rather than commit each
    /// alone (SQLite's `CommitQueue`); others return `nil` (the default).
    func announceWrite() -> IncomingWrite?
    /// Calls `changed` whenever another process saved a change to a list (a shared store;
    /// the default does nothing), and `connected` each time it starts listening (changes may
    /// have been missed before: every list should catch up).
    func observeChanges(connected: @escaping @Sendable () -> Void, changed: @escaping @Sendable (ListKey, Int) -> Void)
    /// Ends connections and background work.
    func close() async
    /// How many sessions the store holds (`diffableweb_sessions{location="store"}`), or `nil`
    /// when it cannot say (the default).
    func sessionCount() async throws -> Int?
}

extension SessionStore {
    public func sessionCount() async throws -> Int? { nil }
    public func announceWrite() -> IncomingWrite? { nil }
    public func touchSessions(_ ids: [SessionID]) async throws {}
    public func observeChanges(connected: @escaping @Sendable () -> Void, changed: @escaping @Sendable (ListKey, Int) -> Void) {}
}

/// A list in the store: its session and demo.
public struct ListKey: Hashable, Sendable, CustomStringConvertible {
    public var session: SessionID
    public var demo: String
    public init(session: SessionID, demo: String) { self.session = session; self.demo = demo }
    public var description: String { "\(session.value)/\(demo)" }
}

/// Where a writer stands: its version and the epoch of its event ids.
public struct ListPosition: Sendable, Equatable {
    public var version: Int
    public var epoch: String
    public init(version: Int, epoch: String) { self.version = version; self.epoch = epoch }
}

/// A list as it is kept across restarts: the identifiers of its snapshot at `version`, its
/// epoch, its demo's state (``Demo/persistentState()``) and its last events, oldest first.
public struct StoredList: Sendable, Equatable {
    public var demo: String
    public var version: Int
    public var epoch: String
    public var sections: [StoredSection]
    public var state: [String: String]
    public var events: [StoredEvent] = []
    /// Whether the list is a function of `state` (see ``ListWrite/derived``): `sections` and
    /// `events` are then empty, and the demo computes the list from its state.
    public var derived: Bool

    public init(demo: String, version: Int, epoch: String, sections: [StoredSection], state: [String: String], events: [StoredEvent] = [],
                derived: Bool = false) {
        (self.demo, self.version, self.epoch, self.sections, self.state, self.events) = (demo, version, epoch, sections, state, events)
        self.derived = derived
    }

    public struct StoredSection: Sendable, Equatable, Codable {
        public var id: String
        public var items: [String]
        public init(id: String, items: [String]) { self.id = id; self.items = items }
    }
}

/// An event as replayed to a reconnecting client.
public struct StoredEvent: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var data: String
    public init(version: Int, name: String, data: String) { (self.version, self.name, self.data) = (version, name, data) }
}

/// One saved change: the event clients replay, and the changeset that turns the previous
/// version's identifiers into this one's (`nil` for a change that is not a diff, a reload:
/// the write that carries it also carries a checkpoint).
public struct StoredChange: Sendable, Equatable {
    public var event: StoredEvent
    public var changeset: String?
    public var version: Int { event.version }
    public init(event: StoredEvent, changeset: String?) { self.event = event; self.changeset = changeset }
}

/// What one write adds: changes in version order, the state after them, and optionally the
/// identifiers after the last one (a checkpoint: older changes are then kept only as long as
/// the event log needs them).
public struct ListWrite: Sendable {
    public var version: Int
    public var epoch: String
    public var changes: [StoredChange]
    public var state: [String: String]
    /// Whether `state` differs from the last one saved (a store may then skip writing it).
    public var stateChanged: Bool
    public var checkpoint: [StoredList.StoredSection]?
    /// Whether the list is a function of `state` (``Demo/derivedSnapshot()``: the Mountains
    /// list is its query). The store then keeps the version, epoch and state only, and forgets
    /// the list's identifiers and changes (`changes` is empty, `checkpoint` is `nil`). A later
    /// write that is not derived carries a checkpoint.
    public var derived: Bool
    public init(version: Int, epoch: String, changes: [StoredChange], state: [String: String], stateChanged: Bool = true,
                checkpoint: [StoredList.StoredSection]?, derived: Bool = false) {
        (self.version, self.epoch, self.changes, self.state, self.stateChanged, self.checkpoint) = (version, epoch, changes, state, stateChanged, checkpoint)
        self.derived = derived
    }

    /// A write of a derived list: its version and state (see ``derived``).
    public static func derived(version: Int, epoch: String, state: [String: String]) -> ListWrite {
        ListWrite(version: version, epoch: epoch, changes: [], state: state, checkpoint: nil, derived: true)
    }
}

/// What a writer missed: the changes after its version (when the store still has all of them
/// and the epoch is the writer's), or the whole list.
public enum ListCatchUp: Sendable {
    case changes([StoredChange], version: Int, state: [String: String])
    case list(StoredList)
}

/// A session as it is kept across restarts (its lists are read when first used).
public struct StoredSession: Sendable, Equatable {
    public var id: SessionID
    public var shareID: SessionID
    public init(id: SessionID, shareID: SessionID) { self.id = id; self.shareID = shareID }
}

/// A save in progress: ``wait()`` returns once it is committed, or throws why it was not.
///
/// Whoever saves completes it (the SQLite store's thread, once the group commit that holds the
/// write is committed); waiting never does the saving itself.
public final class SaveReceipt: Sendable {
    /// A receipt for a save already made (or for nothing to save).
    public static func saved() -> SaveReceipt {
        let receipt = SaveReceipt()
        receipt.complete(.success(()))
        return receipt
    }

    private let state = Mutex<(result: Result<Void, any Error>?, waiters: [@Sendable (Result<Void, any Error>) -> Void])>((nil, []))

    /// Whether the save may fail with ``ListStoreError/lostRace(_:)`` (another process saved
    /// first): its request then runs again, so it waits for the outcome itself rather than
    /// answering through a promise (`SaveDeferral`).
    public let mayLoseRace: Bool

    public init(mayLoseRace: Bool = false) { self.mayLoseRace = mayLoseRace }

    /// Whether the outcome is known.
    public var isComplete: Bool { state.withLock { $0.result != nil } }

    /// Records the outcome and wakes every waiter (the first outcome counts).
    public func complete(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [@Sendable (Result<Void, any Error>) -> Void] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter(result) }
    }

    /// Calls `handler` with the outcome: at once when it is known, else on the thread that
    /// completes the receipt (keep it short: on the SQLite store that is the store's thread).
    public func whenComplete(_ handler: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let done = state.withLock { state -> Result<Void, any Error>? in
            if let result = state.result { return result }
            state.waiters.append(handler)
            return nil
        }
        if let done { handler(done) }
    }

    public func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            whenComplete { continuation.resume(with: $0) }
        }
    }
}

/// What ``SessionStore/write(_:from:_:undo:)`` asks of a write it may take back.
public enum UndoStep: Sendable {
    /// Remember the list as it is now (before `body` runs).
    case mark
    /// Put the list back as it was when marked.
    case restore
}
