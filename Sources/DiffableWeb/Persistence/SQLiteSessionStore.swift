import Dispatch
import Foundation
import Synchronization

/// The embedded default: one SQLite file (`<directory>/diffable-web.sqlite`, WAL journal), with
/// a versioned schema checked at start. One process writes it (SQLite is not a shared store
/// here: ``isShared`` is false).
///
/// Schema (version 3):
/// - `sessions(id, share_id, seen_at)`: `seen_at` (milliseconds since 1970) is when the session
///   was last known to be in use (made, brought back, or marked seen by ``touchSessions(_:)``):
///   ``deleteSessions(idleFor:)`` deletes by it, so that sessions evicted from memory do not
///   stay forever;
/// - `lists(session_id, demo, version, epoch, state, base_version, base_sections)`: a list's
///   checkpoint (the identifiers at `base_version`, a JSON array of sections), written only
///   when a checkpoint is due;
/// - `changes(session_id, demo, version, name, data, changeset, state)`: each change after the
///   checkpoint (with the demo state when it changed), and the last few before it (the event
///   log a reconnecting client replays). A change is one `INSERT`: a version is written once
///   (a second writer of the same version is an error, never a silent overwrite).
final class SQLiteSessionStore: SessionStore {
    /// The schema this build writes; migrations bring older files up to it.
    static let schemaVersion = 3
    let path: String
    /// Changes kept before the checkpoint, for replay (the event log's capacity).
    let eventLogCapacity: Int
    private let database: SQLiteDatabase

    /// Opens or creates the store under `directory` (created if missing).
    /// - Throws: when the directory or file cannot be made, or the file's schema is newer than
    ///   this build knows (an older server must not write a newer store).
    init(directory: String, eventLogCapacity: Int = 64) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = URL(fileURLWithPath: directory).appendingPathComponent("diffable-web.sqlite").path
        self.eventLogCapacity = max(1, eventLogCapacity)
        database = try SQLiteDatabase(path: path)
        // WAL: a commit is one append; NORMAL survives a crash of this process (kill -9), which
        // is the guarantee; a power cut may lose the last commits. A checkpoint truncates the
        // WAL back to 16 MiB (a sweep deleting many idle sessions would otherwise leave it at
        // its peak; the file's freed pages are reused by new sessions).
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536;"
                             + " PRAGMA journal_size_limit = 16777216;")
        try migrate()
    }

    private func migrate() throws {
        try database.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        let found = try database.query("SELECT version FROM schema_version").first?.first?.integer ?? 0
        guard found <= Self.schemaVersion else {
            throw SQLiteError(message: "\(path) has schema version \(found); this build knows up to \(Self.schemaVersion)")
        }
        let changes = """
            CREATE TABLE changes (
                session_id TEXT NOT NULL, demo TEXT NOT NULL, version INTEGER NOT NULL,
                name TEXT NOT NULL, data TEXT NOT NULL, changeset TEXT, state TEXT,
                PRIMARY KEY (session_id, demo, version),
                FOREIGN KEY (session_id, demo) REFERENCES lists(session_id, demo) ON DELETE CASCADE
            ) WITHOUT ROWID;
            """
        if found < 1 {
            try database.execute("""
                BEGIN;
                CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE, seen_at INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX sessions_seen_at ON sessions (seen_at);
                CREATE TABLE lists (
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    demo TEXT NOT NULL, version INTEGER NOT NULL, epoch TEXT NOT NULL, state TEXT NOT NULL,
                    base_version INTEGER NOT NULL, base_sections TEXT NOT NULL,
                    PRIMARY KEY (session_id, demo));
                \(changes)
                DELETE FROM schema_version;
                INSERT INTO schema_version VALUES (3);
                COMMIT;
                """)
            return
        }
        if found < 2 {
            // Version 1 saved every list whole at each change: that becomes its checkpoint.
            try database.execute("""
                BEGIN;
                ALTER TABLE lists RENAME COLUMN sections TO base_sections;
                ALTER TABLE lists ADD COLUMN base_version INTEGER NOT NULL DEFAULT 0;
                UPDATE lists SET base_version = version;
                \(changes)
                DELETE FROM schema_version;
                INSERT INTO schema_version VALUES (2);
                COMMIT;
                """)
        }
        if found < 3 {
            // Sessions saved before version 3 count as seen now: each gets one idle timeout.
            try database.execute("""
                BEGIN;
                ALTER TABLE sessions ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
                UPDATE sessions SET seen_at = \(Self.now());
                CREATE INDEX sessions_seen_at ON sessions (seen_at);
                DELETE FROM schema_version;
                INSERT INTO schema_version VALUES (3);
                COMMIT;
                """)
        }
    }

    /// Milliseconds since 1970, as `seen_at` keeps them.
    private static func now() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    // MARK: Sessions

    func session(id: SessionID) async throws -> StoredSession? {
        try load(where: "id = ?", id.value)
    }

    func session(shareID: SessionID) async throws -> StoredSession? {
        try load(where: "share_id = ?", shareID.value)
    }

    /// A saved session, marked seen now in the same statement (a session brought back is in use:
    /// a sweep running meanwhile either deleted it first, and it is not found, or keeps it).
    private func load(where condition: String, _ value: String) throws -> StoredSession? {
        guard let row = try database.query("UPDATE sessions SET seen_at = ? WHERE \(condition) RETURNING id, share_id",
                                           [.integer(Self.now()), .text(value)]).first,
              let id = row[0].text.flatMap(SessionID.init), let shareID = row[1].text.flatMap(SessionID.init) else { return nil }
        return StoredSession(id: id, shareID: shareID)
    }

    func saveSession(id: SessionID, shareID: SessionID) async throws {
        try database.run("INSERT OR IGNORE INTO sessions (id, share_id, seen_at) VALUES (?, ?, ?)",
                         [.text(id.value), .text(shareID.value), .integer(Self.now())])
    }

    func deleteSession(id: SessionID) async throws {
        try database.run("DELETE FROM sessions WHERE id = ?", [.text(id.value)])
    }

    /// Deletes the sessions not seen for `idle` (their lists and changes go with them). The
    /// registry marks the sessions it serves as seen (``touchSessions(_:)``) before it calls this.
    func deleteSessions(idleFor idle: Duration) async throws -> Int {
        let milliseconds = idle.components.seconds * 1000 + idle.components.attoseconds / 1_000_000_000_000_000
        return try database.query("DELETE FROM sessions WHERE seen_at < ? RETURNING 1", [.integer(Self.now() - Int(milliseconds))]).count
    }

    /// Marks sessions as seen now, in one transaction.
    func touchSessions(_ ids: [SessionID]) async throws {
        guard !ids.isEmpty else { return }
        let now = SQLValue.integer(Self.now())
        try database.transaction { query in
            for id in ids { _ = try query("UPDATE sessions SET seen_at = ? WHERE id = ?", [now, .text(id.value)]) }
        }
    }

    // MARK: Lists

    func list(_ key: ListKey) async throws -> StoredList? {
        queue.withLock { _ = $0.failed.remove(key) }  // the list is made again from what is saved
        return try database.transaction { query -> StoredList? in
            guard let row = try query("SELECT version, epoch, state, base_version, base_sections FROM lists WHERE session_id = ? AND demo = ?",
                                      [.text(key.session.value), .text(key.demo)]).first,
                  let headVersion = row[0].integer, let epoch = row[1].text, var state = row[2].text,
                  let baseVersion = row[3].integer, let base = row[4].text else { return nil }
            // The list row is written at checkpoints; a change after it carries the version,
            // and the demo state when that changed.
            var version = headVersion
            let changes = try query("SELECT version, name, data, changeset, state FROM changes WHERE session_id = ? AND demo = ? ORDER BY version",
                                    [.text(key.session.value), .text(key.demo)]).compactMap { row -> StoredChange? in
                guard let changeVersion = row[0].integer, let name = row[1].text, let data = row[2].text else { return nil }
                if changeVersion > headVersion {
                    version = max(version, changeVersion)
                    if let changed = row[4].text { state = changed }
                }
                return StoredChange(event: StoredEvent(version: changeVersion, name: name, data: data), changeset: row[3].text)
            }
            return try StoredList.assemble(demo: key.demo, version: version, epoch: epoch, state: state,
                                           baseVersion: baseVersion, base: base, changes: changes)
        }
    }

    func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList? {
        let inserted = try database.query("""
            INSERT INTO lists (session_id, demo, version, epoch, state, base_version, base_sections)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, demo) DO NOTHING RETURNING 1
            """, [.text(key.session.value), .text(key.demo), .integer(list.version), .text(list.epoch),
                  .text(StoredList.json(list.state)), .integer(list.version), .text(StoredList.json(list.sections))])
        return inserted.isEmpty ? try await self.list(key) : nil
    }

    /// Group commit: `body` runs at once (nobody else writes this store), and its change is
    /// handed to the committer; the receipt says when it is saved.
    func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                            _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: () -> Void) async throws -> (value: T, saved: SaveReceipt) {
        let (value, write) = try body(nil)
        guard let write else { return (value, .saved()) }
        return (value, enqueue(key, write))
    }

    // MARK: Group commit

    /// Writes waiting for the committer, in the order they were enqueued.
    private struct Queue {
        var waiting: [(key: ListKey, write: ListWrite, receipt: SaveReceipt)] = []
        var committing = false
        /// Lists whose write failed: their later writes build on it and fail too.
        var failed: Set<ListKey> = []
    }
    private let queue = Mutex(Queue())
    /// The committer runs here, off the cooperative threads (a commit is blocking I/O).
    private let committer = DispatchQueue(label: "diffable-web.sqlite-commit")

    /// The first write to find the committer idle leads: its waiter commits everything waiting
    /// on its own thread (no hand-over), then passes what arrived meanwhile to the committer
    /// queue. Later writes wait for the leader's or the queue's commit.
    func enqueue(_ key: ListKey, _ write: ListWrite) -> SaveReceipt {
        // One committer at a time (a list's writes must commit in the order they were made):
        // deciding to lead and joining the queue happen under one lock.
        queue.withLock { queue in
            let receipt = queue.committing ? SaveReceipt() : SaveReceipt(lead: { self.commitWaiting(rounds: 1) })
            queue.committing = true
            queue.waiting.append((key, write, receipt))
            return receipt
        }
    }

    /// Commits everything waiting as one transaction (each write in a savepoint of its own, so
    /// that one failing write fails alone), for `rounds` rounds, then hands what still waits to
    /// the committer queue (which runs until nothing waits).
    private func commitWaiting(rounds: Int = .max) {
        var round = 0
        while true {
            if round == rounds {
                let more = queue.withLock { queue -> Bool in
                    if queue.waiting.isEmpty { queue.committing = false }
                    return !queue.waiting.isEmpty
                }
                if more { committer.async { self.commitWaiting() } }
                return
            }
            round += 1
            let (batch, failed) = queue.withLock { queue -> ([(key: ListKey, write: ListWrite, receipt: SaveReceipt)], Set<ListKey>) in
                if queue.waiting.isEmpty { queue.committing = false }
                defer { queue.waiting.removeAll() }
                return (queue.waiting, queue.failed)
            }
            guard !batch.isEmpty else { return }
            var results = [Result<Void, any Error>](repeating: .success(()), count: batch.count)
            var newlyFailed = Set<ListKey>()
            do {
                try database.transaction { query in
                    for (index, item) in batch.enumerated() {
                        if failed.contains(item.key) || newlyFailed.contains(item.key) {
                            results[index] = .failure(StoredListError(description: "an earlier change of \(item.key) was not saved"))
                            continue
                        }
                        if batch.count == 1 {
                            try save(item.write, of: item.key, query)  // fails the transaction, which is this write
                            continue
                        }
                        _ = try query("SAVEPOINT list_write", [])
                        do {
                            try save(item.write, of: item.key, query)
                            _ = try query("RELEASE list_write", [])
                        } catch {
                            _ = try? query("ROLLBACK TO list_write", [])
                            _ = try? query("RELEASE list_write", [])
                            results[index] = .failure(error)
                            newlyFailed.insert(item.key)
                        }
                    }
                }
            } catch {
                results = results.map { _ in .failure(error) }
                newlyFailed.formUnion(batch.map(\.key))
            }
            if !newlyFailed.isEmpty { queue.withLock { $0.failed.formUnion(newlyFailed) } }
            for (index, item) in batch.enumerated() { item.receipt.complete(results[index]) }
        }
    }

    func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp? { nil }

    func close() async {}

    private func save(_ write: ListWrite, of key: ListKey, _ query: (String, [SQLValue]) throws -> [[SQLValue]]) throws {
        let (session, demo) = (SQLValue.text(key.session.value), SQLValue.text(key.demo))
        let state = SQLValue.text(StoredList.json(write.state))
        for (index, change) in write.changes.enumerated() {
            // The last change carries the demo state when it changed: one statement per change.
            let changedState = write.stateChanged && index == write.changes.count - 1 && write.checkpoint == nil ? state : .null
            _ = try query("INSERT INTO changes (session_id, demo, version, name, data, changeset, state) VALUES (?, ?, ?, ?, ?, ?, ?)",
                          [session, demo, .integer(change.version), .text(change.event.name), .text(change.event.data),
                           change.changeset.map(SQLValue.text) ?? .null, changedState])
        }
        if let checkpoint = write.checkpoint {
            let updated = try query("""
                UPDATE lists SET version = ?, epoch = ?, state = ?, base_version = ?, base_sections = ?
                WHERE session_id = ? AND demo = ? RETURNING 1
                """, [.integer(write.version), .text(write.epoch), state, .integer(write.version),
                      .text(StoredList.json(checkpoint)), session, demo])
            guard !updated.isEmpty else { throw StoredListError(description: "\(key) is not in the store") }
            _ = try query("DELETE FROM changes WHERE session_id = ? AND demo = ? AND version <= ?",
                          [session, demo, .integer(write.version - eventLogCapacity)])
        }
    }
}
