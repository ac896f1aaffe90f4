import Logging
import PostgresNIO

// The schema: an ordered list of migrations, applied in one transaction by the first process to
// start (the others wait on an advisory lock).
extension PostgresSessionStore {
    /// Step `k` (from 1) brings the schema from version `k - 1` to `k`. Append only: a step
    /// that shipped never changes.
    static let migrations: [[String]] = [
        // 1: sessions, lists (a checkpoint and the demo's state), changes since the checkpoint.
        [
            """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE,
                                   seen_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            """
            CREATE TABLE lists (
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                demo TEXT NOT NULL, version BIGINT NOT NULL, epoch TEXT NOT NULL, state TEXT NOT NULL,
                base_version BIGINT NOT NULL, base_sections TEXT NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                PRIMARY KEY (session_id, demo))
            """,
            """
            CREATE TABLE changes (
                session_id TEXT NOT NULL, demo TEXT NOT NULL, version BIGINT NOT NULL,
                name TEXT NOT NULL, data TEXT NOT NULL, changeset TEXT,
                PRIMARY KEY (session_id, demo, version),
                FOREIGN KEY (session_id, demo) REFERENCES lists(session_id, demo) ON DELETE CASCADE)
            """,
        ],
        // 2: a list that is a function of its state (`ListWrite.derived`) keeps no identifiers
        // and no changes.
        [
            "ALTER TABLE lists ADD COLUMN derived BOOLEAN NOT NULL DEFAULT false",
        ],
    ]

    /// The schema version this build writes.
    static var schemaVersion: Int { migrations.count }

    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
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
            guard found < Self.schemaVersion else { return }
            for step in Self.migrations[found...] {
                for statement in step {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            try await connection.query("DELETE FROM schema_version", logger: logger)
            try await connection.query("INSERT INTO schema_version VALUES (\(unescaped: String(Self.schemaVersion)))", logger: logger)
        }
    }
}
