import DiffableWeb
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Sessions in a PostgreSQL database that several server processes share (postgres-nio, a
/// pool of connections, plus one connection that listens).
///
/// The tables are SQLite's (``SQLiteSessionStore``), with times for expiry; the schema is an
/// ordered list of migrations (`PostgresSessionStore+Schema.swift`).
///
/// A write is saved optimistically, with a compare-and-swap on the list's version that inserts
/// the changes and notifies only when the list is still where this process left it (it is
/// usually the list's only writer). The saves of a list are pipelined
/// (`PostgresSessionStore+Pipeline.swift`): its writer goes on while a save is on its way, and
/// the writes that queue up meanwhile go together in the next round trip, as one statement
/// (``SaveRun``); each write's receipt completes once its statement committed. A pipelined
/// save that loses (another process saved the list first) fails its writes and those after
/// it: their requests are refused (503, try again), and the list is made again from the store.
///
/// A list another process wrote lately (a notification, or a lost save, in the last few
/// seconds) is written serially instead: each write waits for its own save, and when another
/// process wrote first, the local change is undone, the list's row is locked
/// (`SELECT … FOR UPDATE`), what the other wrote is caught up, and the change is made again and
/// saved under the lock (`PostgresSessionStore+Writing.swift`). So two processes never save
/// over each other, and each builds on the other's last change.
///
/// A save notifies the channel `diffable_web` with `<process> <session> <demo> <version>`:
/// the other processes that follow that list read what they missed from the tables and send
/// it to their streams.
///
/// # Running
/// The store is a ServiceLifecycle `Service`: its pool of connections and its listening
/// connection live while ``run()`` runs. Its initializer only checks the database and brings the
/// schema up to date, on a connection of its own (closed again): a database that cannot be
/// reached stops a start before the port opens. ``WebApp/services(server:shutdownGrace:)`` puts
/// it first in the group, so that it stops last, after the app closed.
/// ```swift
/// let store = try await PostgresSessionStore(url: "postgres://app@db/app", logger: logger)
/// configuration.sessionStore = store
/// try await WebApp.serve(configuration)   // runs the store's service in its group
/// ```
public final class PostgresSessionStore: SessionStore, Service {
    static let channel = "diffable_web"
    let eventLogCapacity: Int
    /// This process, in notifications (its own are ignored).
    let processID: String
    let client: PostgresClient
    let listenConfiguration: PostgresConnection.Configuration
    let logger: Logger
    let listening = Mutex(Listening())
    /// Finished by ``close()``: the listening connection ends.
    let closed = AsyncStream<Void>.makeStream()
    /// Yields when the first observer registers (``observeChanges(connected:changed:)``): the
    /// listening connection opens then, not before (a store nobody observes does not listen,
    /// and does not turn its lists' writes serial on other processes' saves).
    let observed = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let conflictCount = Atomic<Int>(0)
    let pipelines = Mutex(SavePipelines())
    let mergedCount = Atomic<Int>(0)
    let roundTripCount = Atomic<Int>(0)
    let refusedCount = Atomic<Int>(0)

    /// How many writes lost their optimistic save to another process's and were saved again
    /// under the list's row lock, since this store opened.
    public var conflicts: Int { conflictCount.load(ordering: .relaxed) }
    /// How many pipelined writes were saved in the same statement as the write before them
    /// (their list's writes queued up while a save was on its way), since this store opened.
    public var mergedWrites: Int { mergedCount.load(ordering: .relaxed) }
    /// How many statements pipelined saves took, since this store opened.
    public var pipelinedSaves: Int { roundTripCount.load(ordering: .relaxed) }
    /// How many pipelined writes were not saved (another process saved their list first, or
    /// the database failed), and their requests refused, since this store opened.
    public var refusedWrites: Int { refusedCount.load(ordering: .relaxed) }

    /// Checks `url` (`postgres://user[:password]@host[:port]/database`, TLS with
    /// `?sslmode=require`) and brings the schema up to this build's, on a connection of its own.
    /// Queries wait until ``run()`` runs the pool.
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
    }

    /// Runs the pool of connections and the listening connection (``observeChanges(connected:changed:)``)
    /// until graceful shutdown or cancellation; the listening connection ends sooner when the
    /// store closes. Call once.
    public func run() async {
        await withDiscardingTaskGroup { group in
            // postgres-nio's own service: it ends on graceful shutdown, and cancelled.
            group.addTask { await self.client.run() }
            group.addTask { await cancelWhenGracefulShutdown { await self.listenUntilClosed() } }
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

    /// Ends the listening connection; the pool ends with ``run()`` (the store's service stops
    /// after the app's close).
    public func close() async {
        closed.continuation.finish()
    }
}

/// Why the PostgreSQL store cannot be used.
public struct PostgresStoreError: Error, CustomStringConvertible {
    public var description: String
}
