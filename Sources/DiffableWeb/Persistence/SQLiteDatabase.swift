import CSQLite
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

/// One SQLite connection (Debian's libsqlite3), used from any thread one statement (or one
/// transaction) at a time.
///
/// A thin wrapper, no more than the store needs: `execute` for schema scripts, `run` for one
/// statement with bound values, `query` for rows, `transaction` for several statements that
/// commit together. Prepared statements are cached by their text (the store's are few), so a
/// write costs SQLite's work, not parsing.
final class SQLiteDatabase: Sendable {
    private final class Handle: @unchecked Sendable {
        // Only used under the mutex.
        let pointer: OpaquePointer
        var statements: [String: OpaquePointer] = [:]
        init(pointer: OpaquePointer) { self.pointer = pointer }
    }
    private let handle: Mutex<Handle>

    /// Opens (creating it if needed) the database file at `path`.
    init(path: String) throws {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        guard sqlite3_open_v2(path, &pointer, flags, nil) == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close(pointer) }
            throw SQLiteError(message: "cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(pointer, 5_000)
        handle = Mutex(Handle(pointer: pointer))
    }

    deinit {
        handle.withLock { handle in
            for statement in handle.statements.values { sqlite3_finalize(statement) }
            _ = sqlite3_close(handle.pointer)
        }
    }

    /// Runs a script of statements without values (schema, pragmas).
    func execute(_ sql: String) throws {
        try handle.withLock { try Self.execute(sql, on: $0) }
    }

    /// Runs one statement with `values` bound to its `?`s.
    func run(_ sql: String, _ values: [SQLValue] = []) throws {
        _ = try query(sql, values)
    }

    /// Runs one statement and returns its rows.
    func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try handle.withLock { try Self.query(sql, values, on: $0) }
    }

    /// Runs `body`'s statements as one transaction: all of them are saved, or (when `body`
    /// throws) none.
    func transaction<T>(_ body: (_ query: (String, [SQLValue]) throws -> [[SQLValue]]) throws -> T) throws -> T {
        try handle.withLock { handle in
            _ = try Self.query("BEGIN IMMEDIATE", [], on: handle)  // prepared once, like every statement here
            do {
                let value = try body { sql, values in try Self.query(sql, values, on: handle) }
                _ = try Self.query("COMMIT", [], on: handle)
                return value
            } catch {
                _ = try? Self.query("ROLLBACK", [], on: handle)
                throw error
            }
        }
    }

    private static func execute(_ sql: String, on handle: Handle) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle.pointer, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw SQLiteError(message: message)
        }
    }

    private static func query(_ sql: String, _ values: [SQLValue], on handle: Handle) throws -> [[SQLValue]] {
        let statement: OpaquePointer
        if let cached = handle.statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            guard sqlite3_prepare_v2(handle.pointer, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else {
                throw SQLiteError(message: String(cString: sqlite3_errmsg(handle.pointer)))
            }
            handle.statements[sql] = prepared
            statement = prepared
        }
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
            guard result == SQLITE_OK else { throw SQLiteError(message: String(cString: sqlite3_errmsg(handle.pointer))) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw SQLiteError(message: String(cString: sqlite3_errmsg(handle.pointer))) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(Int(sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: .null
                default: .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                }
            })
        }
    }
}
