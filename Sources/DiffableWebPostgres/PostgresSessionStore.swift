import DiffableWeb
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Sessions in a PostgreSQL database that several server processes share (postgres-nio, a
/// pool of connections, plus one connection that listens).
///
/// The tables are SQLite's (``SQLiteSessionStore``), with times for expiry. A write holds its
/// list's row (`SELECT … FOR UPDATE`) from before its body runs until it commits, so two
/// processes never apply to one list at once, and each starts from the other's last change.
/// A commit notifies the channel `diffable_web` with `<process> <session> <demo> <version>`:
/// the other processes that follow that list read what they missed from the tables and send
/// it to their streams.
public final class PostgresSessionStore: SessionStore {
    static let schemaVersion = 1
    static let channel = "diffable_web"
    let eventLogCapacity: Int
    /// This process, in notifications (its own are ignored).
    let processID: String
    private let client: PostgresClient
    private let listenConfiguration: PostgresConnection.Configuration
    private let logger: Logger
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`, TLS with
    /// `?sslmode=require`), and brings the schema up to this build's.
    /// - Throws: for a malformed URL, a database that cannot be reached, or a schema newer
    ///   than this build knows.
    public init(url: String, eventLogCapacity: Int = 64, logger: Logger) async throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw PostgresStoreError(description: "--database-url must look like postgres://user@host:5432/database")
        }
        let user = components.user ?? "postgres"
        let password = components.password
        let database = components.path.split(separator: "/").first.map(String.init) ?? user
        let requireTLS = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } ?? false
        if requireTLS {
            throw PostgresStoreError(description: "sslmode=require is not supported by this build; use a local socket or a tunnel")
        }
        var configuration = PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                         password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = 16
        configuration.options.minimumConnections = 2
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.listenConfiguration = PostgresConnection.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                                    password: password, database: database, tls: .disable)
        self.eventLogCapacity = max(1, eventLogCapacity)
        self.logger = logger
        var generator = SystemRandomNumberGenerator()
        self.processID = String(generator.next() as UInt64, radix: 36)
        do {
            // On a connection of its own, before the pool runs: a database that cannot be
            // reached stops the start with a clear error.
            let connection = try await PostgresConnection.connect(configuration: listenConfiguration, id: 0, logger: logger)
            do {
                try await Self.migrate(connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        } catch {
            // The migration runs in a transaction: its own refusal (a newer schema) is the cause.
            let cause = (error as? PostgresTransactionError)?.closureError ?? error
            let reason = (cause as? PostgresStoreError)?.description ?? String(reflecting: cause)
            throw PostgresStoreError(description: "cannot use the database at \(host):\(components.port ?? 5432)/\(database): \(reason)")
        }
        let client = self.client
        tasks.withLock { $0.append(Task { await client.run() }) }
    }

    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            // One process migrates at a time (several nodes may start together).
            try await connection.query("SELECT pg_advisory_xact_lock(727274)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", logger: logger)
            var found = 0
            for try await version in try await connection.query("SELECT version FROM schema_version", logger: logger).decode(Int.self) {
                found = version
            }
            guard found <= Self.schemaVersion else {
                throw PostgresStoreError(description: "the database has schema version \(found); this build knows up to \(Self.schemaVersion)")
            }
            if found < 1 {
                try await connection.query("""
                    CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE,
                                           seen_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                try await connection.query("""
                    CREATE TABLE lists (
                        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                        demo TEXT NOT NULL, version BIGINT NOT NULL, epoch TEXT NOT NULL, state TEXT NOT NULL,
                        base_version BIGINT NOT NULL, base_sections TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                        PRIMARY KEY (session_id, demo))
                    """, logger: logger)
                try await connection.query("""
                    CREATE TABLE changes (
                        session_id TEXT NOT NULL, demo TEXT NOT NULL, version BIGINT NOT NULL,
                        name TEXT NOT NULL, data TEXT NOT NULL, changeset TEXT,
                        PRIMARY KEY (session_id, demo, version),
                        FOREIGN KEY (session_id, demo) REFERENCES lists(session_id, demo) ON DELETE CASCADE)
                    """, logger: logger)
                try await connection.query("DELETE FROM schema_version", logger: logger)
                try await connection.query("INSERT INTO schema_version VALUES (1)", logger: logger)
            }
        }
    }

    // MARK: Sessions

    public func session(id: SessionID) async throws -> StoredSession? {
        try await loadSession(try await client.query("SELECT id, share_id FROM sessions WHERE id = \(id.value)", logger: logger))
    }

    public func session(shareID: SessionID) async throws -> StoredSession? {
        try await loadSession(try await client.query("SELECT id, share_id FROM sessions WHERE share_id = \(shareID.value)", logger: logger))
    }

    private func loadSession(_ rows: PostgresRowSequence) async throws -> StoredSession? {
        var found: StoredSession?
        for try await (id, shareID) in rows.decode((String, String).self) {
            if let id = SessionID(id), let shareID = SessionID(shareID) { found = StoredSession(id: id, shareID: shareID) }
        }
        return found
    }

    public func saveSession(id: SessionID, shareID: SessionID) async throws {
        try await client.query("INSERT INTO sessions (id, share_id) VALUES (\(id.value), \(shareID.value)) ON CONFLICT DO NOTHING",
                               logger: logger)
    }

    public func deleteSession(id: SessionID) async throws {
        try await client.query("DELETE FROM sessions WHERE id = \(id.value)", logger: logger)
    }

    public func deleteSessions(idleFor idle: Duration) async throws -> Int {
        let seconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18
        var count = 0
        let rows = try await client.query("""
            DELETE FROM sessions s WHERE s.seen_at < now() - make_interval(secs => \(seconds))
              AND NOT EXISTS (SELECT 1 FROM lists l WHERE l.session_id = s.id AND l.updated_at >= now() - make_interval(secs => \(seconds)))
            RETURNING 1
            """, logger: logger)
        for try await _ in rows { count += 1 }
        return count
    }

    public func touchSessions(_ ids: [SessionID]) async throws {
        guard !ids.isEmpty else { return }
        try await client.query("UPDATE sessions SET seen_at = now() WHERE id = ANY(\(ids.map(\.value))::text[])", logger: logger)
    }

    // MARK: Lists

    public func list(_ key: ListKey) async throws -> StoredList? {
        try await client.withConnection { connection in try await self.list(key, on: connection) }
    }

    private func list(_ key: ListKey, on connection: PostgresConnection) async throws -> StoredList? {
        var head: (Int, String, String, Int, String)?
        for try await row in try await connection.query("""
            SELECT version, epoch, state, base_version, base_sections FROM lists WHERE session_id = \(key.session.value) AND demo = \(key.demo)
            """, logger: logger).decode((Int, String, String, Int, String).self) {
            head = row
        }
        guard let (version, epoch, state, baseVersion, base) = head else { return nil }
        let changes = try await self.changes(key, after: 0, on: connection)
        return try StoredList.assemble(demo: key.demo, version: version, epoch: epoch, state: state,
                                       baseVersion: baseVersion, base: base, changes: changes)
    }

    private func changes(_ key: ListKey, after version: Int, on connection: PostgresConnection) async throws -> [StoredChange] {
        var changes: [StoredChange] = []
        for try await (version, name, data, changeset) in try await connection.query("""
            SELECT version, name, data, changeset FROM changes
            WHERE session_id = \(key.session.value) AND demo = \(key.demo) AND version > \(version) ORDER BY version
            """, logger: logger).decode((Int, String, String, String?).self) {
            changes.append(StoredChange(event: StoredEvent(version: version, name: name, data: data), changeset: changeset))
        }
        return changes
    }

    public func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList? {
        let state = StoredList.json(list.state), sections = StoredList.json(list.sections)
        var inserted = false
        for try await _ in try await client.query("""
            INSERT INTO lists (session_id, demo, version, epoch, state, base_version, base_sections)
            VALUES (\(key.session.value), \(key.demo), \(list.version), \(list.epoch), \(state), \(list.version), \(sections))
            ON CONFLICT (session_id, demo) DO NOTHING RETURNING 1
            """, logger: logger) {
            inserted = true
        }
        return inserted ? nil : try await self.list(key)
    }

    public func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                   _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: () -> Void) async throws -> (value: T, saved: SaveReceipt) {
        do {
            return (try await locked(key, from: local, body), .saved())
        } catch let error as PostgresTransactionError {
            // A refused change (a bad operation) is the caller's error, not the store's.
            if let refused = error.closureError { throw refused }
            throw error
        }
    }

    private func locked<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                     _ body: (ListCatchUp?) throws -> (T, ListWrite?)) async throws -> T {
        try await client.withTransaction(logger: logger) { connection in
            var head: (Int, String)?
            for try await row in try await connection.query("""
                SELECT version, epoch FROM lists WHERE session_id = \(key.session.value) AND demo = \(key.demo) FOR UPDATE
                """, logger: logger).decode((Int, String).self) {
                head = row
            }
            guard let head else { throw ListStoreError.replaced }  // deleted (expired) meanwhile
            let missed = head == (local.version, local.epoch) ? nil : try await catchUp(key, from: local, on: connection)
            let (value, write) = try body(missed)
            if let write { try await save(write, of: key, on: connection) }
            return value
        }
    }

    public func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp? {
        try await client.withConnection { connection in try await self.catchUp(key, from: local, on: connection) }
    }

    private func catchUp(_ key: ListKey, from local: ListPosition, on connection: PostgresConnection) async throws -> ListCatchUp? {
        var head: (Int, String, String)?
        for try await row in try await connection.query("""
            SELECT version, epoch, state FROM lists WHERE session_id = \(key.session.value) AND demo = \(key.demo)
            """, logger: logger).decode((Int, String, String).self) {
            head = row
        }
        guard let (version, epoch, stateText) = head else { return nil }
        if epoch == local.epoch {
            if version <= local.version { return nil }
            let changes = try await self.changes(key, after: local.version, on: connection)
            if changes.first?.version == local.version + 1, changes.last?.version == version, changes.count == version - local.version,
               changes.allSatisfy({ $0.changeset != nil }),
               let state = try? JSONDecoder().decode([String: String].self, from: Data(stateText.utf8)) {
                return .changes(changes, version: version, state: state)
            }
        }
        return try await list(key, on: connection).map { .list($0) }
    }

    private func save(_ write: ListWrite, of key: ListKey, on connection: PostgresConnection) async throws {
        let versions = write.changes.map(\.version)
        let names = write.changes.map(\.event.name)
        let data = write.changes.map(\.event.data)
        let changesets = write.changes.map { $0.changeset ?? "" }
        let state = StoredList.json(write.state)
        let payload = "\(processID) \(key.session.value) \(key.demo) \(write.version)"
        let (session, demo) = (key.session.value, key.demo)
        if let checkpoint = write.checkpoint {
            let sections = StoredList.json(checkpoint)
            let keepFrom = write.version - eventLogCapacity
            try await connection.query("""
                WITH inserted AS (
                    INSERT INTO changes (session_id, demo, version, name, data, changeset)
                    SELECT \(session), \(demo), v, n, d, NULLIF(c, '') FROM unnest(\(versions)::bigint[], \(names)::text[], \(data)::text[], \(changesets)::text[]) AS t(v, n, d, c)),
                updated AS (
                    UPDATE lists SET version = \(write.version), epoch = \(write.epoch), state = \(state), updated_at = now(),
                        base_version = \(write.version), base_sections = \(sections)
                    WHERE session_id = \(session) AND demo = \(demo)),
                pruned AS (
                    DELETE FROM changes WHERE session_id = \(session) AND demo = \(demo) AND version <= \(keepFrom))
                SELECT pg_notify(\(Self.channel), \(payload))
                """, logger: logger)
        } else {
            try await connection.query("""
                WITH inserted AS (
                    INSERT INTO changes (session_id, demo, version, name, data, changeset)
                    SELECT \(session), \(demo), v, n, d, NULLIF(c, '') FROM unnest(\(versions)::bigint[], \(names)::text[], \(data)::text[], \(changesets)::text[]) AS t(v, n, d, c)),
                updated AS (
                    UPDATE lists SET version = \(write.version), epoch = \(write.epoch), state = \(state), updated_at = now()
                    WHERE session_id = \(session) AND demo = \(demo))
                SELECT pg_notify(\(Self.channel), \(payload))
                """, logger: logger)
        }
    }

    // MARK: Notifications

    /// Calls `changed` for every list another process wrote, until the store closes;
    /// `connected` after each (re)connection of the listening connection (notifications may
    /// have been missed while it was down: catch up on every list).
    public func observeChanges(connected: @escaping @Sendable () -> Void, changed: @escaping @Sendable (ListKey, Int) -> Void) {
        let (configuration, logger, processID) = (listenConfiguration, logger, processID)
        let task = Task {
            var attempt = 0
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                    do {
                        try await connection.listen(on: Self.channel) { notifications in
                            attempt = 0
                            connected()
                            for try await notification in notifications {
                                let parts = notification.payload.split(separator: " ")
                                guard parts.count == 4, parts[0] != processID, let session = SessionID(String(parts[1])),
                                      let version = Int(parts[3]) else { continue }
                                changed(ListKey(session: session, demo: String(parts[2])), version)
                            }
                        }
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                } catch {
                    if Task.isCancelled { break }
                    attempt += 1
                    logger.warning("the PostgreSQL notification connection failed; retrying", metadata: ["error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: .milliseconds(min(2_000, 100 * attempt)))
                }
            }
        }
        tasks.withLock { $0.append(task) }
    }

    public func close() async {
        let tasks = self.tasks.withLock { tasks in defer { tasks.removeAll() }; return tasks }
        for task in tasks { task.cancel() }
    }
}

/// Why the PostgreSQL store cannot be used.
public struct PostgresStoreError: Error, CustomStringConvertible {
    public var description: String
}
