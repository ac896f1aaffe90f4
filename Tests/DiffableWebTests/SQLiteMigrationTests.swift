import Foundation
import Testing
@testable import DiffableWeb

/// Issue 21: the embedded store's migrations are one ordered list that a fresh file runs too.
/// (Before, a fresh file ran a separate "newest" script, and it drifted: schema 2 files made
/// before `changes.state` existed kept schema 2 without it, and migrated to 3 still without it.)
/// Each case below is a file as an older build wrote it, with the DDL that build ran.
@Suite("SQLite migrations: files of schema 1, 2 and 3 open at the newest with their sessions and lists; a newer file is refused")
struct SQLiteMigrationTests {
    static let session = "0123456789abcdef0123456789abcdef", share = "fedcba9876543210fedcba9876543210"
    static let epoch = "00000000abcd"
    /// `[n1, n2]` at version 2, then `n3` appended (version 3).
    static let sections = #"[{"id":"main","items":["n1","n2"]}]"#

    /// The DDL and rows of a file that an older build wrote, by the schema it wrote.
    enum OldFile: String, CaseIterable, CustomTestStringConvertible {
        case schema1, schema2WithoutChangeState, schema2, schema3
        var testDescription: String { rawValue }

        var script: String {
            switch self {
            case .schema1:
                """
                CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);
                CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE);
                CREATE TABLE lists (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    demo TEXT NOT NULL, version INTEGER NOT NULL, epoch TEXT NOT NULL,
                    sections TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (session_id, demo));
                """
            case .schema2WithoutChangeState, .schema2, .schema3:
                """
                CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (\(self == .schema3 ? 3 : 2));
                CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE\(self == .schema3 ? ", seen_at INTEGER NOT NULL DEFAULT 0" : ""));
                \(self == .schema3 ? "CREATE INDEX sessions_seen_at ON sessions (seen_at);" : "")
                CREATE TABLE lists (
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    demo TEXT NOT NULL, version INTEGER NOT NULL, epoch TEXT NOT NULL, state TEXT NOT NULL,
                    base_version INTEGER NOT NULL, base_sections TEXT NOT NULL,
                    PRIMARY KEY (session_id, demo));
                CREATE TABLE changes (
                    session_id TEXT NOT NULL, demo TEXT NOT NULL, version INTEGER NOT NULL,
                    name TEXT NOT NULL, data TEXT NOT NULL, changeset TEXT\(self == .schema2WithoutChangeState ? "" : ", state TEXT"),
                    PRIMARY KEY (session_id, demo, version),
                    FOREIGN KEY (session_id, demo) REFERENCES lists(session_id, demo) ON DELETE CASCADE
                ) WITHOUT ROWID;
                """
            }
        }

        /// Writes the file's schema and one session whose `numbers` list holds `n1, n2, n3` at
        /// version 3 (schema 1: whole; later: a checkpoint at 2 and the change to 3).
        func write(to path: String) throws {
            let database = try SQLiteDatabase(path: path)
            try database.execute(script)
            try database.run("INSERT INTO sessions (id, share_id) VALUES (?, ?)", [.text(session), .text(share)])
            if self == .schema1 {
                try database.run("INSERT INTO lists VALUES (?, 'numbers', 3, ?, ?, '{\"next\":\"4\"}')",
                                 [.text(session), .text(epoch), .text(#"[{"id":"main","items":["n1","n2","n3"]}]"#)])
                return
            }
            try database.run("INSERT INTO lists VALUES (?, 'numbers', 2, ?, '{\"next\":\"4\"}', 2, ?)", [.text(session), .text(epoch), .text(sections)])
            let change = StoreFixture.change(3, from: ["n1", "n2"], to: ["n1", "n2", "n3"])
            try database.run("INSERT INTO changes (session_id, demo, version, name, data, changeset) VALUES (?, 'numbers', 3, 'changeset', ?, ?)",
                             [.text(session), .text(change.event.data), .text(change.changeset ?? "")])
        }
    }

    /// Each table's column names, sorted (what the store's statements name).
    static func columns(_ database: SQLiteDatabase) throws -> [String: [String]] {
        var tables: [String: [String]] = [:]
        for table in ["sessions", "lists", "changes", "schema_version"] {
            tables[table] = try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.first?.text }.sorted()
        }
        return tables
    }

    @Test("an older file opens at the newest schema, its session and list intact, and takes new writes", arguments: OldFile.allCases)
    func migrates(_ file: OldFile) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("diffable-web.sqlite").path
        try file.write(to: path)
        let store = try SQLiteSessionStore(directory: directory.path)
        let id = try #require(SessionID(Self.session))
        #expect(try await store.session(id: id) == StoredSession(id: id, shareID: try #require(SessionID(Self.share))))
        let key = ListKey(session: id, demo: "numbers")
        let list = try #require(try await store.list(key))
        #expect(list.version == 3 && list.epoch == Self.epoch && list.state == ["next": "4"] && !list.derived)
        #expect(list.sections == [.init(id: "main", items: ["n1", "n2", "n3"])])

        let database = try SQLiteDatabase(path: path)
        #expect(try database.query("SELECT version FROM schema_version").first?.first?.integer == 4)
        #expect(try database.query("SELECT derived FROM lists").first?.first?.integer == 0)
        // The migrated file takes the writes of this build: a change with its state, then a derived write.
        try await store.save(key, ListWrite(version: 4, epoch: Self.epoch, changes: [StoreFixture.change(4, from: ["n1", "n2", "n3"], to: ["n1", "n2", "n3", "n4"])],
                                            state: ["next": "5"], checkpoint: nil))
        #expect(try await store.list(key)?.sections.first?.items == ["n1", "n2", "n3", "n4"])
        #expect(try await store.list(key)?.state == ["next": "5"])
        try await store.save(key, .derived(version: 5, epoch: Self.epoch, state: ["next": "6"]))
        #expect(try await store.list(key)?.derived == true)
    }

    @Test("a fresh file and every migrated one have the same tables and columns (one list of migrations, no second script to drift)")
    func freshEqualsMigrated() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fresh = directory.appendingPathComponent("fresh")
        _ = try SQLiteSessionStore(directory: fresh.path)
        let expected = try Self.columns(SQLiteDatabase(path: fresh.appendingPathComponent("diffable-web.sqlite").path))
        #expect(expected["lists"]?.contains("derived") == true)
        for file in OldFile.allCases {
            let old = directory.appendingPathComponent(file.rawValue)
            try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
            try file.write(to: old.appendingPathComponent("diffable-web.sqlite").path)
            _ = try SQLiteSessionStore(directory: old.path)
            #expect(try Self.columns(SQLiteDatabase(path: old.appendingPathComponent("diffable-web.sqlite").path)) == expected, "\(file)")
        }
    }

    @Test("a file of schema 5 (newer than this build) is refused, naming both versions, and left as it was")
    func newerIsRefused() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("diffable-web.sqlite").path)
        try database.execute("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (5);")
        #expect { try SQLiteSessionStore(directory: directory.path) } throws: { error in
            "\(error)".contains("schema version 5") && "\(error)".contains("up to 4")
        }
        #expect(try database.query("SELECT version FROM schema_version").first?.first?.integer == 5)
        #expect(try database.query("SELECT count(*) FROM sqlite_master WHERE name = 'sessions'").first?.first?.integer == 0)
    }
}
