import DiffableWeb
import Logging
import PostgresNIO

// Saving a write: pipelined (`+Pipeline`), or, on a list another process writes too, alone and
// optimistically, under the row lock after a conflict.
extension PostgresSessionStore {
    /// Saves one write of a list. `body` runs at once (this process is usually the list's only
    /// writer, and at its head).
    ///
    /// Pipelined (the usual case): its write is queued and goes with the list's next round
    /// trip; the returned receipt completes once it is committed, and fails when the save
    /// lost to another process's (``SaveMode``).
    ///
    /// On a list another process wrote lately: once the list's pipelined saves are done, the
    /// write is saved with one statement that holds only if the list is still at `local` (see
    /// ``saveStatement(_:of:over:processID:keep:)``): one round trip, no transaction of ours.
    /// When another process wrote first (or the list is gone), `undo` puts the list back at
    /// `local` (marked before `body` ran; the pipelined path marks nothing), and the write runs
    /// again under the row lock after what it missed (``locked(_:from:_:)``); it returns once
    /// saved.
    ///
    /// A write with nothing to save costs no round trip (it waits for the list's last queued
    /// save, if any).
    /// - Throws: ``ListStoreError/lostRace(_:)`` (`body` not run) while the list's writes
    ///   are refused after a failed save, until it is read again (the live layer makes it
    ///   again and runs the request again).
    public func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                   _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
        switch saveMode(key) {
        case .pipelined:
            let (value, write) = try body(nil)
            guard let write else { return (value, pendingReceipt(key) ?? .saved()) }
            return (value, enqueue(write, of: key, at: local))
        case .serial:
            await drain(key)
            if case .refused = saveMode(key) { throw ListStoreError.lostRace(Self.refusedAfterFailure) }
            return try await serial(key, from: local, body, undo: undo)
        case .refused:
            throw ListStoreError.lostRace(Self.refusedAfterFailure)
        }
    }

    /// A write saved alone, optimistically, and under the row lock when it lost (see
    /// ``write(_:from:_:undo:)``).
    private func serial<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                     _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
        undo(.mark)
        let (value, write) = try body(nil)
        guard let write else { return (value, .saved()) }
        if try await run(Self.saveStatement(write, of: key, over: local, processID: processID, keep: eventLogCapacity)) {
            return (value, .saved())
        }
        undo(.restore)
        wroteElsewhere(key)
        contended(key, at: local)
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

    /// Tells the other processes that this one writes `key` too, when its save lost (and so
    /// notified nothing): the winner then writes it serially for a while rather than pipeline
    /// writes that this one's next save would make fail. Sent on its own (a refused write
    /// rolls the locked transaction back, and its notification with it), without waiting; the
    /// version in it is `local`'s, which those ahead of it ignore.
    private func contended(_ key: ListKey, at local: ListPosition) {
        let payload = "\(processID) \(key.session.value) \(key.demo) \(local.version)"
        Task { [client, logger] in
            _ = try? await client.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
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
