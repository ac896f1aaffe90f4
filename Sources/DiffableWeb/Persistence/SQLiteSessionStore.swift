import Foundation
import Synchronization

/// The embedded default: one SQLite file (`<directory>/diffable-web.sqlite`, WAL journal), with
/// a versioned schema brought up to date at start (``migrations``). One process writes it.
///
/// All SQLite work runs on the store's own thread (``SQLiteDatabase``: one connection, opened
/// `NOMUTEX`, used by that thread only); every method here awaits it, so no caller blocks a
/// cooperative thread on I/O. A list's writes **commit in groups** on that thread
/// (``write(_:from:_:undo:)``; `SQLiteSessionStore+GroupCommit.swift`), held while other
/// writes are on their way (``announceWrite()``, ``CommitQueue``), and with no savepoint
/// unless a batch fails. Reading a list back
/// (decoding its checkpoint, applying its changes) runs on the caller: the thread does I/O only.
///
/// Schema (version 4):
/// - `sessions(id, share_id, seen_at)`: `seen_at` (milliseconds since 1970) is when the session
///   was last known to be in use (made, brought back, or marked seen by ``touchSessions(_:)``):
///   ``deleteSessions(idleFor:)`` deletes by it, so that sessions evicted from memory do not
///   stay forever;
/// - `lists(session_id, demo, version, epoch, state, base_version, base_sections, derived)`: a
///   list's checkpoint (the identifiers at `base_version`, a JSON array of sections), written
///   only when a checkpoint is due; a `derived` list (``ListWrite/derived``) keeps its version,
///   epoch and state here and nothing else (`base_sections` is `[]`, it has no changes);
/// - `changes(session_id, demo, version, name, data, changeset, state)`: each change after the
///   checkpoint (with the demo state when it changed), and the last few before it (the event
///   log a reconnecting client replays); older ones are deleted a chunk per commit after the
///   checkpoint (`SQLiteSessionStore+Trimming.swift`). A change is one `INSERT`: a version is written once
///   (a second writer of the same version is an error, never a silent overwrite).
final class SQLiteSessionStore: SessionStore {
    let path: String
    /// Changes kept before the checkpoint, for replay (the event log's capacity).
    let eventLogCapacity: Int
    let database: SQLiteDatabase
    /// Writes waiting for the group commit, and when to commit them (``CommitQueue``).
    let queue: Mutex<CommitQueue>
    /// Transactions the group commit made, and the writes they saved (tests read them).
    let commits = Atomic<Int>(0), writesSaved = Atomic<Int>(0)
    /// Lists whose changes up to a version are to be deleted, a chunk per commit
    /// (`SQLiteSessionStore+Trimming.swift`).
    let pendingTrims = Mutex<[ListKey: Int]>([:])
    /// Checkpoints the WAL off the store's thread (``SQLiteWALCheckpointer``).
    let checkpointer: SQLiteWALCheckpointer

    /// Opens or creates the store under `directory` (created if missing). Its schema work runs
    /// here, before the server starts, while the caller waits.
    /// - Throws: when the directory or file cannot be made, or the file's schema is newer than
    ///   this build knows (an older server must not write a newer store).
    /// - Parameter maximumHold: the longest the group commit holds a write for the writes still
    ///   on their way (``CommitQueue``; tests make it long, to see what ends a hold).
    init(directory: String, eventLogCapacity: Int = 64, maximumHold: DispatchTimeInterval = .milliseconds(2)) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: directory).appendingPathComponent("diffable-web.sqlite").path
        self.path = path
        self.eventLogCapacity = max(1, eventLogCapacity)
        queue = Mutex(CommitQueue(maximumHold: maximumHold))
        database = try SQLiteDatabase(path: path)
        try database.performAndWait { connection in
            // WAL: a commit is one append; NORMAL survives a crash of this process (kill -9),
            // which is the guarantee; a power cut may lose the last commits. A checkpoint
            // truncates the WAL back to 16 MiB (a sweep deleting many idle sessions would
            // otherwise leave it at its peak; the file's freed pages are reused by new sessions).
            try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;"
                                   + " PRAGMA cache_size = -8192; PRAGMA journal_size_limit = 16777216;")
            try Self.migrate(connection, path: path)
        }
        let checkpointer = try SQLiteWALCheckpointer(path: path)
        self.checkpointer = checkpointer
        try database.performAndWait { connection in
            connection.onCommit { [unowned connection] in checkpointer.committed(walPages: $0, on: connection) }
        }
    }

    /// Milliseconds since 1970, as `seen_at` keeps them.
    private static func now() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    // MARK: Sessions

    func session(id: SessionID) async throws -> StoredSession? {
        try await load(where: "id = ?", id.value)
    }

    func session(shareID: SessionID) async throws -> StoredSession? {
        try await load(where: "share_id = ?", shareID.value)
    }

    /// A saved session, marked seen now in the same statement (a session brought back is in use:
    /// a sweep running meanwhile either deleted it first, and it is not found, or keeps it).
    private func load(where condition: String, _ value: String) async throws -> StoredSession? {
        let now = Self.now()
        let rows = try await database.perform { connection in
            try connection.query("UPDATE sessions SET seen_at = ? WHERE \(condition) RETURNING id, share_id", [.integer(now), .text(value)])
        }
        guard let row = rows.first, let id = row[0].text.flatMap(SessionID.init), let shareID = row[1].text.flatMap(SessionID.init) else { return nil }
        return StoredSession(id: id, shareID: shareID)
    }

    func saveSession(id: SessionID, shareID: SessionID) async throws {
        let now = Self.now()
        try await database.perform { connection in
            try connection.run("INSERT OR IGNORE INTO sessions (id, share_id, seen_at) VALUES (?, ?, ?)",
                               [.text(id.value), .text(shareID.value), .integer(now)])
        }
    }

    func deleteSession(id: SessionID) async throws {
        try await database.perform { [self] connection in
            try connection.run("DELETE FROM sessions WHERE id = ?", [.text(id.value)])
            forgetTrims { $0.session == id }  // a session made again with this id starts at version 0
        }
    }

    /// Deletes the sessions not seen for `idle` (their lists and changes go with them). The
    /// registry marks the sessions it serves as seen (``touchSessions(_:)``) before it calls this.
    func deleteSessions(idleFor idle: Duration) async throws -> Int {
        let milliseconds = idle.components.seconds * 1000 + idle.components.attoseconds / 1_000_000_000_000_000
        let before = Self.now() - Int(milliseconds)
        return try await database.perform { [self] connection in
            let deleted = try connection.query("DELETE FROM sessions WHERE seen_at < ? RETURNING 1", [.integer(before)]).count
            if deleted > 0 { forgetTrims { _ in true } }  // their rows are gone; the rest wait for their next checkpoint
            return deleted
        }
    }

    func sessionCount() async throws -> Int? {
        try await database.perform { connection in
            try connection.query("SELECT count(*) FROM sessions").first?.first.flatMap { value -> Int? in
                if case .integer(let count) = value { return Int(count) }
                return nil
            }
        }
    }

    /// Marks sessions as seen now, in one transaction.
    func touchSessions(_ ids: [SessionID]) async throws {
        guard !ids.isEmpty else { return }
        let now = SQLValue.integer(Self.now())
        try await database.perform { connection in
            try connection.transaction {
                for id in ids { try connection.run("UPDATE sessions SET seen_at = ? WHERE id = ?", [now, .text(id.value)]) }
            }
        }
    }

    // MARK: Lists

    func list(_ key: ListKey) async throws -> StoredList? {
        queue.withLock { _ = $0.failed.remove(key) }  // the list is made again from what is saved
        let (session, demo) = (SQLValue.text(key.session.value), SQLValue.text(key.demo))
        let capacity = eventLogCapacity
        let rows = try await database.perform { connection -> (list: [SQLValue], changes: [[SQLValue]])? in
            try connection.transaction {
                guard let list = try connection.query("""
                    SELECT version, epoch, state, base_version, base_sections, derived FROM lists WHERE session_id = ? AND demo = ?
                    """, [session, demo]).first else { return nil }
                // A derived list has no changes to read.
                guard list[5].integer == 0 else { return (list, []) }
                // From the replay log before the checkpoint: older rows wait to be trimmed.
                let from = (list[3].integer ?? 0) - capacity
                return (list, try connection.query("""
                    SELECT version, name, data, changeset, state FROM changes WHERE session_id = ? AND demo = ? AND version > ? ORDER BY version
                    """, [session, demo, .integer(from)]))
            }
        }
        guard let rows else { return nil }
        guard let headVersion = rows.list[0].integer, let epoch = rows.list[1].text, var state = rows.list[2].text,
              let baseVersion = rows.list[3].integer, let base = rows.list[4].text, let derived = rows.list[5].integer else {
            throw StoredListError(description: "\(key): the list's row is damaged")
        }
        // The list row is written at checkpoints; a change after it carries the version, and
        // the demo state when that changed.
        var version = headVersion
        let changes = rows.changes.compactMap { row -> StoredChange? in
            guard let changeVersion = row[0].integer, let name = row[1].text, let data = row[2].text else { return nil }
            if changeVersion > headVersion {
                version = max(version, changeVersion)
                if let changed = row[4].text { state = changed }
            }
            return StoredChange(event: StoredEvent(version: changeVersion, name: name, data: data), changeset: row[3].text)
        }
        return try StoredList.assemble(demo: key.demo, version: version, epoch: epoch, state: state,
                                       baseVersion: baseVersion, base: base, changes: changes, derived: derived != 0)
    }

    func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList? {
        // A derived list keeps its state only (see ``save(_:of:on:)``).
        let values: [SQLValue] = [.text(key.session.value), .text(key.demo), .integer(list.version), .text(list.epoch),
                                  .text(StoredList.json(list.state)), .integer(list.version),
                                  .text(StoredList.json(list.derived ? [] : list.sections)), .integer(list.derived ? 1 : 0)]
        let inserted = try await database.perform { connection in
            try connection.query("""
                INSERT INTO lists (session_id, demo, version, epoch, state, base_version, base_sections, derived)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, demo) DO NOTHING RETURNING 1
                """, values)
        }
        return inserted.isEmpty ? try await self.list(key) : nil
    }

    /// Group commit: `body` runs at once on the caller (nobody else writes this store, and a
    /// list's writer must not wait for I/O), and its write is handed to the store's thread; the
    /// receipt says when it is saved.
    func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                            _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
        let (value, write) = try body(nil)
        guard let write else { return (value, .saved()) }
        return (value, enqueue(key, write))
    }

    func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp? { nil }

    func close() async {}

    /// Saves one write (on the store's thread, inside the group commit's transaction).
    ///
    /// A derived write sets the list row to its version, epoch and state and deletes the list's
    /// changes; an ordinary one inserts its changes, and at a checkpoint rewrites the row (which
    /// makes a derived list ordinary again: the live layer gives the first write after derived
    /// ones a checkpoint).
    /// - Returns: after a checkpoint, the version up to which the list's older changes are to
    ///   be deleted once the transaction has committed (``trim(_:through:)``).
    @discardableResult
    func save(_ write: ListWrite, of key: ListKey, on connection: SQLiteConnection) throws -> Int? {
        let (session, demo) = (SQLValue.text(key.session.value), SQLValue.text(key.demo))
        // Written only when it changed, or with a checkpoint: not made for every change.
        var state: SQLValue { .text(StoredList.json(write.state)) }
        if write.derived {
            let updated = try connection.query("""
                UPDATE lists SET version = ?, epoch = ?, state = ?, base_version = ?, base_sections = '[]', derived = 1
                WHERE session_id = ? AND demo = ? RETURNING 1
                """, [.integer(write.version), .text(write.epoch), state, .integer(write.version), session, demo])
            guard !updated.isEmpty else { throw StoredListError(description: "\(key) is not in the store") }
            try connection.run("DELETE FROM changes WHERE session_id = ? AND demo = ?", [session, demo])
            return nil
        }
        for (index, change) in write.changes.enumerated() {
            // The last change carries the demo state when it changed: one statement per change.
            let changedState = write.stateChanged && index == write.changes.count - 1 && write.checkpoint == nil ? state : .null
            try connection.run("INSERT INTO changes (session_id, demo, version, name, data, changeset, state) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               [session, demo, .integer(change.version), .text(change.event.name), .text(change.event.data),
                                change.changeset.map(SQLValue.text) ?? .null, changedState])
        }
        if let checkpoint = write.checkpoint {
            let updated = try connection.query("""
                UPDATE lists SET version = ?, epoch = ?, state = ?, base_version = ?, base_sections = ?, derived = 0
                WHERE session_id = ? AND demo = ? RETURNING 1
                """, [.integer(write.version), .text(write.epoch), state, .integer(write.version),
                      .text(StoredList.json(checkpoint)), session, demo])
            guard !updated.isEmpty else { throw StoredListError(description: "\(key) is not in the store") }
            return write.version - eventLogCapacity
        }
        return nil
    }
}
