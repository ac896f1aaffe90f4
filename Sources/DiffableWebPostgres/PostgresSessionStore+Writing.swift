import DiffableWeb
import Logging
import PostgresNIO

// Saving a write: optimistically in one round trip, under the row lock after a conflict.
extension PostgresSessionStore {
    /// Saves one write of a list, optimistically: `body` runs at once (this process is usually
    /// the list's only writer, and at its head), and its change is saved with one statement
    /// that holds only if the list is still at `local` (see ``saveQuery(_:of:over:)``): one
    /// round trip, no transaction of ours. When another process wrote first (or the list is
    /// gone), `undo` puts the list back at `local`, and the write runs again under the row lock
    /// after what it missed (``locked(_:from:_:)``). A write with nothing to save costs no
    /// round trip. Returns once saved.
    public func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                   _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: () -> Void) async throws -> (value: T, saved: SaveReceipt) {
        let (value, write) = try body(nil)
        guard let write else { return (value, .saved()) }
        if try await saved(client.query(Self.saveQuery(write, of: key, over: local, processID: processID, keep: eventLogCapacity),
                                        logger: logger)) {
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
                let query = Self.saveQuery(write, of: key, over: head, processID: processID, keep: eventLogCapacity)
                // The row is ours until the commit: only a body that did not build on `head`
                // (a list made afresh elsewhere) misses it.
                guard try await saved(connection.query(query, logger: logger)) else { throw ListStoreError.replaced }
            }
            return value
        }
    }

    /// Whether a ``saveQuery(_:of:over:processID:keep:)`` saved (it answers one row then).
    private func saved(_ rows: PostgresRowSequence) async throws -> Bool {
        var saved = false
        for try await _ in rows { saved = true }
        return saved
    }

    /// One statement that saves `write` only if the list is at `base` (its version and epoch),
    /// and then notifies the other processes; it answers one row when it saved, none when the
    /// list was elsewhere or gone. Autocommit, so one round trip: the extended protocol's
    /// Parse, Bind, Execute and Sync of an unnamed statement go out together.
    ///
    /// - an ordinary write inserts its changes;
    /// - with a checkpoint it also replaces the identifiers, and prunes the changes the event
    ///   log no longer needs (`keep`: how many to keep);
    /// - a derived write keeps only the version, epoch and state and deletes the list's changes.
    static func saveQuery(_ write: ListWrite, of key: ListKey, over base: ListPosition, processID: String, keep: Int) -> PostgresQuery {
        let (session, demo) = (key.session.value, key.demo)
        let state = StoredList.json(write.state)
        let payload = "\(processID) \(session) \(demo) \(write.version)"
        if write.derived {
            return """
                WITH updated AS (
                    UPDATE lists SET version = \(write.version), epoch = \(write.epoch), state = \(state), updated_at = now(),
                        derived = true, base_version = \(write.version), base_sections = '[]'
                    WHERE session_id = \(session) AND demo = \(demo) AND version = \(base.version) AND epoch = \(base.epoch)
                    RETURNING 1),
                forgotten AS (
                    DELETE FROM changes WHERE session_id = \(session) AND demo = \(demo) AND EXISTS (SELECT 1 FROM updated))
                SELECT pg_notify(\(channel), \(payload)) FROM updated
                """
        }
        let versions = write.changes.map(\.version)
        let names = write.changes.map(\.event.name)
        let data = write.changes.map(\.event.data)
        let changesets = write.changes.map { $0.changeset ?? "" }
        if let checkpoint = write.checkpoint {
            let sections = StoredList.json(checkpoint)
            return """
                WITH updated AS (
                    UPDATE lists SET version = \(write.version), epoch = \(write.epoch), state = \(state), updated_at = now(),
                        derived = false, base_version = \(write.version), base_sections = \(sections)
                    WHERE session_id = \(session) AND demo = \(demo) AND version = \(base.version) AND epoch = \(base.epoch)
                    RETURNING 1),
                inserted AS (
                    INSERT INTO changes (session_id, demo, version, name, data, changeset)
                    SELECT \(session), \(demo), v, n, d, NULLIF(c, '')
                    FROM unnest(\(versions)::bigint[], \(names)::text[], \(data)::text[], \(changesets)::text[]) AS t(v, n, d, c)
                    WHERE EXISTS (SELECT 1 FROM updated)),
                pruned AS (
                    DELETE FROM changes WHERE session_id = \(session) AND demo = \(demo) AND version <= \(write.version - keep)
                    AND EXISTS (SELECT 1 FROM updated))
                SELECT pg_notify(\(channel), \(payload)) FROM updated
                """
        }
        return """
            WITH updated AS (
                UPDATE lists SET version = \(write.version), epoch = \(write.epoch), state = \(state), updated_at = now()
                WHERE session_id = \(session) AND demo = \(demo) AND version = \(base.version) AND epoch = \(base.epoch)
                RETURNING 1),
            inserted AS (
                INSERT INTO changes (session_id, demo, version, name, data, changeset)
                SELECT \(session), \(demo), v, n, d, NULLIF(c, '')
                FROM unnest(\(versions)::bigint[], \(names)::text[], \(data)::text[], \(changesets)::text[]) AS t(v, n, d, c)
                WHERE EXISTS (SELECT 1 FROM updated))
            SELECT pg_notify(\(channel), \(payload)) FROM updated
            """
    }
}
