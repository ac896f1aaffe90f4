import DiffableWeb
import Synchronization

/// One list's pipelined saves: the writes waiting for the next round trip, and whether one is
/// on its way.
struct ListPipeline {
    var queue: [PendingSave] = []
    /// A save of the list is on its way (a task sends the queue until it is empty).
    var flying = false
    /// The receipt of the last write queued while saves are on their way: a write with
    /// nothing to save waits for it (what it answers was built on it).
    var last: SaveReceipt?
    /// Serial writes waiting for the saves on their way.
    var drained: [CheckedContinuation<Void, Never>] = []
    /// A save failed, and with it the writes made on it: the list's writes are refused until
    /// the list is read again (its live copy is made again from the store).
    var refused = false

    var isIdle: Bool { !flying && drained.isEmpty && !refused }
}

/// Every list's pipeline; when another process last wrote each list, and since when this one
/// writes it alone.
struct SavePipelines {
    var lists: [ListKey: ListPipeline] = [:]
    var foreign: [ListKey: ContinuousClock.Instant] = [:]
    var alone: [ListKey: ContinuousClock.Instant] = [:]
    var swept = ContinuousClock.now
    /// How long this process writes a list serially before pipelining it (another process that
    /// started writing it at about the same time is heard of by then; tests set it to zero).
    var warmUp: Duration = .milliseconds(250)

    /// How long after another process wrote a list its writes stay serial.
    static let serialWindow: Duration = .seconds(5)

    /// How `key`'s next write is saved (without its refusal: see ``ListPipeline/refused``):
    /// serially while another process wrote it lately, or this one has not written it alone
    /// for ``warmUp``; pipelined then.
    mutating func mode(_ key: ListKey, at now: ContinuousClock.Instant) -> SaveMode {
        if let wrote = foreign[key] {
            if now - wrote < Self.serialWindow { return .serial }
            foreign[key] = nil
        }
        guard let since = alone[key] else {
            alone[key] = now
            sweep(at: now)
            return warmUp == .zero ? .pipelined : .serial
        }
        return now - since < warmUp ? .serial : .pipelined
    }

    /// Notes that another process wrote `key`: serial for ``serialWindow`` from `now`, and
    /// warmed up again after.
    mutating func wroteElsewhere(_ key: ListKey, at now: ContinuousClock.Instant) {
        foreign[key] = now
        alone[key] = nil
        sweep(at: now)
    }

    /// Now and then, forgets who wrote long ago (a list forgotten warms up again).
    private mutating func sweep(at now: ContinuousClock.Instant) {
        guard foreign.count + alone.count > 1_024, now - swept > Self.serialWindow else { return }
        foreign = foreign.filter { now - $0.value < Self.serialWindow }
        alone = alone.filter { now - $0.value < .seconds(60) }
        swept = now
    }
}

/// How a list's next write is saved.
enum SaveMode {
    /// Run at once and queued: saved with the writes around it, in the list's next round trip.
    case pipelined
    /// Another process wrote the list lately, or this one only started writing it: saved
    /// alone, after the pipeline drained, caught up and run again under the row lock when it
    /// loses (``PostgresSessionStore/write(_:from:_:undo:)``).
    case serial
    /// An earlier save failed: refused until the list is read again.
    case refused
}

// Pipelined saves (see ``PostgresSessionStore``): while one save of a list is on its way, the
// list's next writes queue up and go together in the next round trip, as one statement.
extension PostgresSessionStore {
    /// Why a pipelined write was not saved: another process saved the list first.
    static let lostRace = "another server process changed this list at the same time; try again"

    func saveMode(_ key: ListKey) -> SaveMode {
        pipelines.withLock { pipelines in
            if pipelines.lists[key]?.refused == true { return .refused }
            return pipelines.mode(key, at: .now)
        }
    }

    /// Notes that another process wrote `key` (a notification, or a save of ours that lost):
    /// its writes are serial until `instant` is ``SavePipelines/serialWindow`` in the past.
    func wroteElsewhere(_ key: ListKey, at instant: ContinuousClock.Instant = .now) {
        pipelines.withLock { $0.wroteElsewhere(key, at: instant) }
    }

    /// Queues `write` (made at `base`), sending it now when no save of the list is on its way.
    /// - Returns: the receipt that completes once it is committed.
    func enqueue(_ write: ListWrite, of key: ListKey, at base: ListPosition) -> SaveReceipt {
        let receipt = SaveReceipt(mayLoseRace: true)
        let (start, refused) = pipelines.withLock { pipelines -> (Bool, Bool) in
            var pipeline = pipelines.lists.removeValue(forKey: key) ?? ListPipeline()
            defer { pipelines.lists[key] = pipeline }
            if pipeline.refused { return (false, true) }
            pipeline.queue.append(PendingSave(write: write, base: base, receipt: receipt))
            pipeline.last = receipt
            let start = !pipeline.flying
            pipeline.flying = true
            return (start, false)
        }
        if refused {
            receipt.complete(.failure(ListStoreError.lostRace(Self.refusedAfterFailure)))
        } else if start {
            Task { await self.send(key) }
        }
        return receipt
    }

    /// The receipt a write with nothing to save waits for: the last write's, while saves are
    /// on their way.
    func pendingReceipt(_ key: ListKey) -> SaveReceipt? {
        pipelines.withLock { $0.lists[key]?.last }
    }

    /// Returns once no save of `key` is on its way.
    func drain(_ key: ListKey) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = pipelines.withLock { pipelines -> Bool in
                guard pipelines.lists[key]?.flying == true else { return false }
                pipelines.lists[key]?.drained.append(continuation)
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// The list was read (to be made again): its writes are taken again.
    func readAgain(_ key: ListKey) {
        pipelines.withLock { pipelines in
            guard pipelines.lists[key]?.refused == true else { return }
            pipelines.lists[key]?.refused = false
            if pipelines.lists[key]?.isIdle == true { pipelines.lists[key] = nil }
        }
    }

    static let refusedAfterFailure = "an earlier change to this list could not be saved; try again"

    /// Sends `key`'s queue, round trip after round trip, until it is empty. A save that fails
    /// fails its writes and every write queued after it (each was made on the one before), and
    /// refuses the list's writes until it is read again.
    private func send(_ key: ListKey) async {
        while let batch = nextBatch(key) {
            let runs = SaveRun.runs(batch)
            if batch.count > runs.count { mergedCount.add(batch.count - runs.count, ordering: .relaxed) }
            roundTripCount.add(runs.count, ordering: .relaxed)
            for (index, run) in runs.enumerated() {
                let reason: String
                let failure: any Error
                do {
                    let statement = Self.saveStatement(run.write, of: key, over: run.base, processID: processID, keep: eventLogCapacity)
                    let started = ContinuousClock.now
                    let saved = try await self.run(statement)
                    WebMetrics.storeCommitted(.postgres, saves: run.receipts.count, duration: ContinuousClock.now - started)
                    if saved {
                        for receipt in run.receipts { receipt.complete(.success(())) }
                        continue
                    }
                    reason = Self.lostRace
                    // The live layer makes the list again and runs the requests again on it.
                    failure = ListStoreError.lostRace(reason)
                    wroteElsewhere(key)
                } catch {
                    reason = String(describing: error)
                    failure = PostgresStoreError(description: reason)
                }
                let failed = runs[index...].flatMap(\.receipts) + refuse(key)
                refusedCount.add(failed.count, ordering: .relaxed)
                logger.info("pipelined writes could not be saved; the list is made again from the store", metadata: [
                    "list": "\(key)", "from": "\(run.base.version)", "writes": "\(failed.count)", "reason": "\(reason)",
                ])
                for receipt in failed { receipt.complete(.failure(failure)) }
                break
            }
        }
    }

    /// The queue, taken; `nil` when it is empty (no save is on its way any more).
    private func nextBatch(_ key: ListKey) -> [PendingSave]? {
        let (batch, waiters) = pipelines.withLock { pipelines -> ([PendingSave]?, [CheckedContinuation<Void, Never>]) in
            guard var pipeline = pipelines.lists.removeValue(forKey: key) else { return (nil, []) }
            if !pipeline.queue.isEmpty {
                let batch = pipeline.queue
                pipeline.queue = []
                pipelines.lists[key] = pipeline
                return (batch, [])
            }
            let waiters = pipeline.drained
            (pipeline.flying, pipeline.last, pipeline.drained) = (false, nil, [])
            if !pipeline.isIdle { pipelines.lists[key] = pipeline }
            return (nil, waiters)
        }
        for waiter in waiters { waiter.resume() }
        return batch
    }

    /// Refuses `key`'s writes until it is read again: the receipts of the writes still queued.
    private func refuse(_ key: ListKey) -> [SaveReceipt] {
        pipelines.withLock { pipelines in
            pipelines.lists[key]?.refused = true
            defer { pipelines.lists[key]?.queue.removeAll() }
            return pipelines.lists[key]?.queue.map(\.receipt) ?? []
        }
    }
}
