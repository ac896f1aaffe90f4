import Foundation

/// A list as it is kept across restarts: its snapshot (section and item ids in order), its
/// version, the epoch of its event ids, and what its demo needs besides (``Demo/persistentState()``).
struct StoredList: Sendable, Equatable {
    var demo: String
    var version: Int
    var epoch: String
    var sections: [StoredSection]
    var state: [String: String]

    struct StoredSection: Sendable, Equatable, Codable {
        var id: String
        var items: [String]
    }
}

/// A session as it is kept across restarts.
struct StoredSession: Sendable, Equatable {
    var id: SessionID
    var shareID: SessionID
    var lists: [String: StoredList]
}

/// Where sessions outlive the process. Writes happen inside a list's writer, before the request
/// that caused them is answered: what a client was told succeeded is on disk.
protocol StateStore: Sendable {
    func session(id: SessionID) throws -> StoredSession?
    func session(shareID: SessionID) throws -> StoredSession?
    func saveSession(id: SessionID, shareID: SessionID) throws
    func saveList(_ list: StoredList, session: SessionID) throws
    func deleteSession(id: SessionID) throws
}

/// The embedded default: one SQLite file (`<directory>/diffable-web.sqlite`, WAL journal), with
/// a versioned schema checked at start.
final class SQLiteStateStore: StateStore {
    /// The schema this build writes; migrations bring older files up to it.
    static let schemaVersion = 1
    let path: String
    private let database: SQLiteDatabase

    /// Opens or creates the store under `directory` (created if missing).
    /// - Throws: when the directory or file cannot be made, or the file's schema is newer than
    ///   this build knows (an older server must not write a newer store).
    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = URL(fileURLWithPath: directory).appendingPathComponent("diffable-web.sqlite").path
        database = try SQLiteDatabase(path: path)
        // WAL: a commit is one append; NORMAL survives a crash of this process (kill -9), which
        // is the guarantee; a power cut may lose the last commits.
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        try migrate()
    }

    private func migrate() throws {
        try database.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        let found = try database.query("SELECT version FROM schema_version").first?.first?.integer ?? 0
        guard found <= Self.schemaVersion else {
            throw SQLiteError(message: "\(path) has schema version \(found); this build knows up to \(Self.schemaVersion)")
        }
        if found < 1 {
            try database.execute("""
                BEGIN;
                CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE);
                CREATE TABLE lists (
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    demo TEXT NOT NULL, version INTEGER NOT NULL, epoch TEXT NOT NULL,
                    sections TEXT NOT NULL, state TEXT NOT NULL,
                    PRIMARY KEY (session_id, demo));
                DELETE FROM schema_version;
                INSERT INTO schema_version VALUES (1);
                COMMIT;
                """)
        }
    }

    func session(id: SessionID) throws -> StoredSession? {
        try load(where: "id = ?", id.value)
    }

    func session(shareID: SessionID) throws -> StoredSession? {
        try load(where: "share_id = ?", shareID.value)
    }

    private func load(where condition: String, _ value: String) throws -> StoredSession? {
        guard let row = try database.query("SELECT id, share_id FROM sessions WHERE \(condition)", [.text(value)]).first,
              let id = row[0].text.flatMap(SessionID.init), let shareID = row[1].text.flatMap(SessionID.init) else { return nil }
        var lists: [String: StoredList] = [:]
        let decoder = JSONDecoder()
        for list in try database.query("SELECT demo, version, epoch, sections, state FROM lists WHERE session_id = ?", [.text(id.value)]) {
            guard let demo = list[0].text, let version = list[1].integer, let epoch = list[2].text,
                  let sections = list[3].text.flatMap({ try? decoder.decode([StoredList.StoredSection].self, from: Data($0.utf8)) }),
                  let state = list[4].text.flatMap({ try? decoder.decode([String: String].self, from: Data($0.utf8)) }) else { continue }
            lists[demo] = StoredList(demo: demo, version: version, epoch: epoch, sections: sections, state: state)
        }
        return StoredSession(id: id, shareID: shareID, lists: lists)
    }

    func saveSession(id: SessionID, shareID: SessionID) throws {
        try database.run("INSERT OR IGNORE INTO sessions (id, share_id) VALUES (?, ?)", [.text(id.value), .text(shareID.value)])
    }

    func saveList(_ list: StoredList, session: SessionID) throws {
        // The hand-written writer: `JSONEncoder` was most of a save's time on a 10,000-item list.
        var writer = JSONWriter(capacity: 64 + list.sections.reduce(0) { $0 + $1.items.count } * 12)
        writer.array(list.sections) { w, section in
            w.raw("{\"id\":"); w.string(section.id)
            w.raw(",\"items\":"); w.array(section.items) { $0.string($1) }
            w.raw("}")
        }
        let sections = writer.text
        let state = String(decoding: try JSONEncoder().encode(list.state), as: UTF8.self)
        try database.run("""
            INSERT INTO lists (session_id, demo, version, epoch, sections, state) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (session_id, demo) DO UPDATE SET version = excluded.version, epoch = excluded.epoch,
                sections = excluded.sections, state = excluded.state
            """, [.text(session.value), .text(list.demo), .integer(list.version), .text(list.epoch), .text(sections), .text(state)])
    }

    func deleteSession(id: SessionID) throws {
        try database.run("DELETE FROM sessions WHERE id = ?", [.text(id.value)])
    }
}
