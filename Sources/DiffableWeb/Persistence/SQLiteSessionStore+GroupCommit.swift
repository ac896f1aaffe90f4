import Dispatch
import Synchronization

// Group commit on the store's thread: a list's writer hands its write over and goes on; the
// thread commits everything waiting as one transaction, when the queue says so (writes still
// on their way are waited for, ``CommitQueue``).
extension SQLiteSessionStore {
    /// Announces a write on its way (see ``CommitQueue``).
    func announceWrite() -> IncomingWrite? {
        queue.withLock { $0.announce() }
        return IncomingWrite { [weak self] in self?.settle() }
    }

    private func settle() {
        act(queue.withLock { $0.settle(now: .now()) })
    }

    /// Hands `write` to the store's thread; the receipt completes once it is committed.
    func enqueue(_ key: ListKey, _ write: ListWrite) -> SaveReceipt {
        let receipt = SaveReceipt()
        act(queue.withLock { $0.add(key, write, receipt, now: .now()) })
        return receipt
    }

    /// Does what the queue answered.
    private func act(_ next: CommitQueue.Next) {
        switch next {
        case .nothing: break
        case .commit: database.submit { self.commitWaiting($0) }
        case .armDeadline(let deadline):
            // On the store's thread, which sleeps until then when idle: arming a timer of
            // Dispatch's for each hold woke two more threads per commit.
            database.submit(at: deadline) { [weak self] _ in
                guard let self else { return }
                act(queue.withLock { $0.deadlinePassed(now: .now()) })
            }
        }
    }

    /// Commits everything waiting as one transaction, completes the receipts, and commits again
    /// (behind the thread's other jobs) what arrived meanwhile, unless the queue holds it.
    private func commitWaiting(_ connection: SQLiteConnection) {
        let (batch, failed) = queue.withLock { ($0.take(), $0.failed) }
        let (results, newlyFailed) = batch.isEmpty ? ([], []) : commit(batch, failed: failed, on: connection)
        let next = queue.withLock { queue in
            queue.failed.formUnion(newlyFailed)
            return queue.committed(now: .now())
        }
        for (index, item) in batch.enumerated() {
            for receipt in item.receipts { receipt.complete(results[index]) }
        }
        act(next)
    }

    /// Saves `batch` in one transaction, with no savepoint: the common case, where every write
    /// succeeds. When one fails, the transaction is rolled back and the batch saved again write
    /// by write (``commitEach(_:failed:on:)``), so that one bad write does not sink the others.
    /// - Returns: each write's outcome, and the lists whose write failed.
    private func commit(_ batch: [CommitQueue.Waiting], failed: Set<ListKey>, on connection: SQLiteConnection)
        -> (results: [Result<Void, any Error>], failed: Set<ListKey>) {
        let refused = batch.map { failed.contains($0.key) }
        let started = ContinuousClock.now
        do {
            var trims: [(ListKey, Int)] = []
            try connection.transaction {
                for (index, item) in batch.enumerated() where !refused[index] {
                    if let version = try save(item.write, of: item.key, on: connection) { trims.append((item.key, version)) }
                }
                try trimChunk(on: connection)
            }
            for (key, version) in trims { trim(key, through: version) }
            commits.add(1, ordering: .relaxed)
            writesSaved.add(refused.count { !$0 }, ordering: .relaxed)
            WebMetrics.storeCommitted(.sqlite, saves: refused.count { !$0 }, duration: ContinuousClock.now - started)
            return (zip(batch, refused).map { item, refused in refused ? .failure(Self.earlierFailure(item.key)) : .success(()) }, [])
        } catch {
            let saving = refused.count { !$0 }
            guard saving > 1 else {
                // One write (or none) was saved: it is the one that failed.
                return (batch.map { _ in .failure(error) }, Set(batch.map(\.key)))
            }
            return commitEach(batch, failed: failed, on: connection)
        }
    }

    /// Saves `batch` write by write, each in a savepoint of one transaction: a write that fails
    /// fails alone, with its list's later writes in the batch (they build on it).
    private func commitEach(_ batch: [CommitQueue.Waiting], failed: Set<ListKey>, on connection: SQLiteConnection)
        -> (results: [Result<Void, any Error>], failed: Set<ListKey>) {
        var results = [Result<Void, any Error>](repeating: .success(()), count: batch.count)
        var newlyFailed = Set<ListKey>()
        var saved = 0
        var trims: [(ListKey, Int)] = []
        do {
            try connection.transaction {
                for (index, item) in batch.enumerated() {
                    if failed.contains(item.key) || newlyFailed.contains(item.key) {
                        results[index] = .failure(Self.earlierFailure(item.key))
                        continue
                    }
                    try connection.run("SAVEPOINT list_write")
                    do {
                        let trim = try save(item.write, of: item.key, on: connection)
                        try connection.run("RELEASE list_write")
                        if let trim { trims.append((item.key, trim)) }
                        saved += 1
                    } catch {
                        try? connection.run("ROLLBACK TO list_write")
                        try? connection.run("RELEASE list_write")
                        results[index] = .failure(error)
                        newlyFailed.insert(item.key)
                    }
                }
            }
            for (key, version) in trims { trim(key, through: version) }
            commits.add(1, ordering: .relaxed)
            writesSaved.add(saved, ordering: .relaxed)
        } catch {
            results = results.map { _ in .failure(error) }
            newlyFailed.formUnion(batch.map(\.key))
        }
        return (results, newlyFailed)
    }

    private static func earlierFailure(_ key: ListKey) -> any Error {
        StoredListError(description: "an earlier change of \(key) was not saved")
    }
}
