/// The embedded store's schema: one ordered list of migrations, each applied in its own
/// transaction from the file's version up to the newest. A fresh file runs the same list from
/// the first one, so there is no second "create at the newest" script to drift from it (one
/// did: schema 2 files exist with and without `changes.state`, see version 3).
extension SQLiteSessionStore {
    /// One version of the schema: what brings a file from the version before to this one.
    struct Migration: Sendable {
        var version: Int
        var steps: [Step]

        enum Step: Sendable {
            /// A script of statements.
            case sql(String)
            /// A column added unless the table has it already.
            case addColumn(table: String, column: String, definition: String)
        }
    }

    static let migrations: [Migration] = [
        Migration(version: 1, steps: [.sql("""
            CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE);
            CREATE TABLE lists (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                demo TEXT NOT NULL, version INTEGER NOT NULL, epoch TEXT NOT NULL,
                sections TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (session_id, demo));
            """)]),
        // Version 1 saved every list whole at each change: that becomes its checkpoint.
        Migration(version: 2, steps: [.sql("""
            ALTER TABLE lists RENAME COLUMN sections TO base_sections;
            ALTER TABLE lists ADD COLUMN base_version INTEGER NOT NULL DEFAULT 0;
            UPDATE lists SET base_version = version;
            CREATE TABLE changes (
                session_id TEXT NOT NULL, demo TEXT NOT NULL, version INTEGER NOT NULL,
                name TEXT NOT NULL, data TEXT NOT NULL, changeset TEXT,
                PRIMARY KEY (session_id, demo, version),
                FOREIGN KEY (session_id, demo) REFERENCES lists(session_id, demo) ON DELETE CASCADE
            ) WITHOUT ROWID;
            """)]),
        // A change carries the demo state when it changed (files made at schema 2 by a later
        // build have the column already); sessions saved before now count as seen now: each
        // gets one idle timeout.
        Migration(version: 3, steps: [
            .addColumn(table: "changes", column: "state", definition: "TEXT"),
            .sql("""
                ALTER TABLE sessions ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
                UPDATE sessions SET seen_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER);
                CREATE INDEX sessions_seen_at ON sessions (seen_at);
                """),
        ]),
        // A list that is a function of its state keeps its state only (``ListWrite/derived``).
        Migration(version: 4, steps: [.sql("ALTER TABLE lists ADD COLUMN derived INTEGER NOT NULL DEFAULT 0;")]),
    ]

    /// The schema this build writes.
    static var schemaVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the file from its version up to ``schemaVersion``, one transaction per migration.
    /// - Throws: when the file's schema is newer than this build knows (an older server must
    ///   not write a newer store), or a migration fails (the file stays at the last version
    ///   that succeeded).
    static func migrate(_ connection: SQLiteConnection, path: String) throws {
        try connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        let found = try connection.query("SELECT version FROM schema_version").first?.first?.integer ?? 0
        guard found <= schemaVersion else {
            throw SQLiteError(message: "\(path) has schema version \(found); this build knows up to \(schemaVersion)")
        }
        for migration in migrations where migration.version > found {
            try connection.transaction {
                for step in migration.steps {
                    switch step {
                    case .sql(let script):
                        try connection.execute(script)
                    case .addColumn(let table, let column, let definition):
                        let has = try connection.query("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", [.text(table), .text(column)])
                        if has.first?.first?.integer == 0 { try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) \(definition)") }
                    }
                }
                try connection.run("DELETE FROM schema_version")
                try connection.run("INSERT INTO schema_version VALUES (?)", [.integer(migration.version)])
            }
        }
    }
}
