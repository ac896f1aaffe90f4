import CSQLite
import Foundation
import Synchronization

/// A value bound to, or read from, an SQL statement.
enum SQLValue: Sendable, Equatable {
    case integer(Int)
    case text(String)
    case null

    var text: String? { if case .text(let value) = self { value } else { nil } }
    var integer: Int? { if case .integer(let value) = self { value } else { nil } }
}

/// Why the store failed: SQLite's message, with what was being done.
struct SQLiteError: Error, CustomStringConvertible {
    var message: String
    var description: String { "SQLite: \(message)" }
}

/// What a database's statements did, for tests: how many ran, and how many of them ran on a
/// thread that is not the connection's owner (0 unless something is wrong).
final class SQLiteStatistics: Sendable {
    private let run = Atomic<Int>(0), offOwner = Atomic<Int>(0)
    var statementsRun: Int { run.load(ordering: .relaxed) }
    var statementsOffOwner: Int { offOwner.load(ordering: .relaxed) }

    fileprivate func count(onOwner: Bool) {
        run.add(1, ordering: .relaxed)
        if !onOwner { offOwner.add(1, ordering: .relaxed) }
    }
}

/// One SQLite connection, opened `SQLITE_OPEN_NOMUTEX`: SQLite takes no lock of its own for
/// it, so one thread only may use it. That thread is its ``SQLiteDatabase``'s own: it opens the
/// connection, hands it to each job, and closes it. The type is not `Sendable`, so nothing else
/// can keep it.
///
/// A thin wrapper, no more than the store needs: `execute` for schema scripts, `run` for one
/// statement with bound values, `query` for rows, `transaction` for several statements that
/// commit together. Prepared statements are cached by their text (the store's are few), so a
/// write costs SQLite's work, not parsing.
final class SQLiteConnection {
    private let pointer: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    private let owner = pthread_self()
    private let statistics: SQLiteStatistics
    /// What ``onCommit(walPages:)`` registered (kept alive with the connection).
    private var walHook: WALHook?

    /// Opens (creating it if needed) the database file at `path`, for the calling thread.
    init(path: String, statistics: SQLiteStatistics) throws {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &pointer, flags, nil) == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close(pointer) }
            throw SQLiteError(message: "cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(pointer, 5_000)
        self.pointer = pointer
        self.statistics = statistics
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        _ = sqlite3_close(pointer)
    }

    /// Calls `handler` with the size of the WAL in pages after each commit, on this
    /// connection's thread, in place of SQLite's automatic checkpoint (which ran in the
    /// committing call, on this thread): the handler decides when and where to checkpoint.
    func onCommit(walPages handler: @escaping (Int) -> Void) {
        let hook = WALHook(handler)
        walHook = hook
        _ = sqlite3_wal_hook(pointer, { context, _, _, pages in
            if let context { Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue().handler(Int(pages)) }
            return SQLITE_OK
        }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// Copies what the WAL holds into the database file as far as no reader needs it
    /// (`SQLITE_CHECKPOINT_PASSIVE`: it waits for no lock, and writers go on meanwhile).
    /// Callable from a commit's WAL hook.
    /// - Returns: the frames in the WAL, and how many of them are now in the database file.
    @discardableResult
    func checkpointWAL() throws -> (frames: Int, copied: Int) {
        count()
        var frames: Int32 = 0, copied: Int32 = 0
        let result = sqlite3_wal_checkpoint_v2(pointer, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
        guard result == SQLITE_OK || result == SQLITE_BUSY else {
            throw SQLiteError(message: "checkpoint: " + String(cString: sqlite3_errmsg(pointer)))
        }
        return (Int(frames), Int(copied))
    }

    /// Runs a script of statements without values (schema, pragmas).
    func execute(_ sql: String) throws {
        count()
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(pointer, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw SQLiteError(message: message)
        }
    }

    /// Runs one statement with `values` bound to its `?`s.
    func run(_ sql: String, _ values: [SQLValue] = []) throws {
        _ = try query(sql, values)
    }

    /// Runs `body`'s statements as one transaction: all of them are saved, or (when `body`
    /// throws) none.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")  // prepared once, like every statement here
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    /// Runs one statement and returns its rows.
    func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        count()
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, index, Int64(number))
            case .text(let text): csqlite_bind_text(statement, index, text, -1)
            case .null: sqlite3_bind_null(statement, index)
            }
            guard result == SQLITE_OK else { throw SQLiteError(message: String(cString: sqlite3_errmsg(pointer))) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw SQLiteError(message: String(cString: sqlite3_errmsg(pointer))) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(Int(sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: .null
                default: .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                }
            })
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(pointer, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else {
            throw SQLiteError(message: String(cString: sqlite3_errmsg(pointer)))
        }
        statements[sql] = prepared
        return prepared
    }

    /// Counts a statement, and whether it runs on the owner thread (the check the one-owner
    /// rule rests on; a test reads the count).
    private func count() {
        statistics.count(onOwner: pthread_equal(pthread_self(), owner) != 0)
    }
}

/// A WAL hook's handler, where SQLite's C callback can find it.
private final class WALHook {
    let handler: (Int) -> Void
    init(_ handler: @escaping (Int) -> Void) { self.handler = handler }
}
