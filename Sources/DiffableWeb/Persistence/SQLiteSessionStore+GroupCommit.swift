import Synchronization

// Group commit on the store's thread: a list's writer hands its write over and goes on; the
// thread commits everything waiting as one transaction, and again while more arrived.
extension SQLiteSessionStore {
    /// Writes waiting for the store's thread, in the order they were handed over.
    struct CommitQueue {
        struct Waiting {
            var key: ListKey
            var write: ListWrite
            /// The write's receipt, and those of the derived writes it replaced.
            var receipts: [SaveReceipt]
        }
        var waiting: [Waiting] = []
        /// Where each list's last waiting write is in `waiting`.
        var last: [ListKey: Int] = [:]
        /// Whether a commit job is queued on the store's thread (or running).
        var scheduled = false
        /// Lists whose write failed: their later writes build on it and fail too, until the
        /// list is read again (``list(_:)``).
        var failed: Set<ListKey> = []

        /// Adds `write`; a derived write replaces its list's last waiting write when that is
        /// derived too (both are the list's whole state: only the later one needs saving).
        mutating func add(_ key: ListKey, _ write: ListWrite, _ receipt: SaveReceipt) {
            if write.derived, let index = last[key], waiting[index].write.derived {
                waiting[index].write = write
                waiting[index].receipts.append(receipt)
                return
            }
            last[key] = waiting.count
            waiting.append(Waiting(key: key, write: write, receipts: [receipt]))
        }

        /// Everything waiting, which is then no longer waiting (a later write cannot replace it).
        mutating func take() -> [Waiting] {
            defer { (waiting, last) = ([], [:]) }
            return waiting
        }
    }

    /// Hands `write` to the store's thread; the receipt completes once it is committed.
    func enqueue(_ key: ListKey, _ write: ListWrite) -> SaveReceipt {
        let receipt = SaveReceipt()
        let schedule = queue.withLock { queue -> Bool in
            queue.add(key, write, receipt)
            defer { queue.scheduled = true }
            return !queue.scheduled
        }
        if schedule { database.submit { self.commitWaiting($0) } }
        return receipt
    }

    /// Commits everything waiting as one transaction (each write in a savepoint of its own, so
    /// that one failing write fails alone), completes the receipts, and queues itself again
    /// behind the thread's other jobs when more writes arrived meanwhile.
    private func commitWaiting(_ connection: SQLiteConnection) {
        let (batch, failed) = queue.withLock { queue in
            if queue.waiting.isEmpty { queue.scheduled = false }
            return (queue.take(), queue.failed)
        }
        guard !batch.isEmpty else { return }
        var results = [Result<Void, any Error>](repeating: .success(()), count: batch.count)
        var newlyFailed = Set<ListKey>()
        var saved = 0
        do {
            try connection.transaction {
                for (index, item) in batch.enumerated() {
                    if failed.contains(item.key) || newlyFailed.contains(item.key) {
                        results[index] = .failure(StoredListError(description: "an earlier change of \(item.key) was not saved"))
                        continue
                    }
                    if batch.count == 1 {
                        try save(item.write, of: item.key, on: connection)  // fails the transaction, which is this write
                        saved += 1
                        continue
                    }
                    try connection.run("SAVEPOINT list_write")
                    do {
                        try save(item.write, of: item.key, on: connection)
                        try connection.run("RELEASE list_write")
                        saved += 1
                    } catch {
                        try? connection.run("ROLLBACK TO list_write")
                        try? connection.run("RELEASE list_write")
                        results[index] = .failure(error)
                        newlyFailed.insert(item.key)
                    }
                }
            }
            commits.add(1, ordering: .relaxed)
            writesSaved.add(saved, ordering: .relaxed)
        } catch {
            results = results.map { _ in .failure(error) }
            newlyFailed.formUnion(batch.map(\.key))
        }
        let more = queue.withLock { queue -> Bool in
            queue.failed.formUnion(newlyFailed)
            if queue.waiting.isEmpty { queue.scheduled = false }
            return queue.scheduled
        }
        for (index, item) in batch.enumerated() {
            for receipt in item.receipts { receipt.complete(results[index]) }
        }
        if more { database.submit { self.commitWaiting($0) } }
    }
}
