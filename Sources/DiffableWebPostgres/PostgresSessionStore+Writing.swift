import DiffableWeb
import Logging
import PostgresNIO

// Saving a write: optimistically in one round trip, under the row lock after a conflict.
extension PostgresSessionStore {
    /// Saves one write of a list, optimistically: `body` runs at once (this process is usually
    /// the list's only writer, and at its head), and its change is saved with one statement
    /// that holds only if the list is still at `local` (see ``saveStatement(_:of:over:processID:keep:)``): one
    /// round trip, no transaction of ours. When another process wrote first (or the list is
    /// gone), `undo` puts the list back at `local`, and the write runs again under the row lock
    /// after what it missed (``locked(_:from:_:)``). A write with nothing to save costs no
    /// round trip. Returns once saved.
    public func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                   _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: () -> Void) async throws -> (value: T, saved: SaveReceipt) {
        let (value, write) = try body(nil)
        guard let write else { return (value, .saved()) }
        if try await run(Self.saveStatement(write, of: key, over: local, processID: processID, keep: eventLogCapacity)) {
            return (value, .saved())
        }
        undo()
        let conflicts = conflictCount.add(1, ordering: .relaxed).newValue
        // A lost race is normal when two processes write one list; said once per write, so
        // that a test (and an operator) can see the slow path run.
        logger.info("a write lost its optimistic save to another process; saving it under the row lock", metadata: [
            "list": "\(key)", "from": "\(local.version)", "conflicts": "\(conflicts)",
        ])
        do {
            return (try await locked(key, from: local, body), .saved())
        } catch let error as PostgresTransactionError {
            // A refused change (a bad operation) is the caller's error, not the store's.
            if let refused = error.closureError { throw refused }
            throw error
        }
    }

    /// The slow path: holds the list's row (`SELECT … FOR UPDATE`) while `body` runs after what
    /// other processes wrote since `local`, and saves its change before it commits.
    private func locked<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                     _ body: (ListCatchUp?) throws -> (T, ListWrite?)) async throws -> T {
        try await client.withTransaction(logger: logger) { connection in
            var found: (Int, String)?
            for try await row in try await connection.query("""
                SELECT version, epoch FROM lists WHERE session_id = \(key.session.value) AND demo = \(key.demo) FOR UPDATE
                """, logger: logger).decode((Int, String).self) {
                found = row
            }
            guard let found else { throw ListStoreError.replaced }  // deleted (expired) meanwhile
            let head = ListPosition(version: found.0, epoch: found.1)
            let missed = head == local ? nil : try await catchUp(key, from: local, on: connection)
            let (value, write) = try body(missed)
            if let write {
                let statement = Self.saveStatement(write, of: key, over: head, processID: processID, keep: eventLogCapacity)
                // The row is ours until the commit: only a body that did not build on `head`
                // (a list made afresh elsewhere) misses it.
                guard try await run(statement, on: connection) else { throw ListStoreError.replaced }
            }
            return value
        }
    }
}
