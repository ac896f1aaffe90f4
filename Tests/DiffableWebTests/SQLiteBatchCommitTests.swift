import Foundation
import HTTPTestSupport
import Synchronization
import Testing
@testable import DiffableWeb

/// Issue 21, session 10: the embedded store committed each write nearly alone (batches of 1–2
/// under 16 writers on one list), each write in a savepoint of its own, and woke its thread for
/// each. A write handed over while others are on their way is now held until the last of them
/// arrives (``SQLiteSessionStore/CommitQueue``), and a batch has no savepoint unless it fails.
/// Session 15: held until half of them have arrived, not all (a group commits in two halves,
/// the second being written while the first commits).
@Suite("SQLite batch commit: writes on their way commit together, with no savepoint unless one fails")
struct SQLiteBatchCommitTests {
    /// Ordinary write `version` of a one-section list (`n1`, then one item more per version).
    static func write(_ version: Int) -> ListWrite {
        let before = (1..<version).map { "n\($0)" }, after = (1...version).map { "n\($0)" }
        return ListWrite(version: version, epoch: "00000000e001", changes: [StoreFixture.change(version, from: before, to: after)],
                         state: [:], checkpoint: nil)
    }

    @Test("three writes announced, handed over one by one: the first is held until the second arrives, the two commit in one transaction, the third in another")
    func writesOnTheirWayCommitTogether() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A hold that cannot run out here: what ends it is the second write (two of three wait).
        let (store, key) = try await StoreFixture.store(directory, maximumHold: .seconds(120))
        let commits = store.commits.load(ordering: .relaxed), saves = store.writesSaved.load(ordering: .relaxed)
        let announced = try (0..<3).map { _ in try #require(store.announceWrite()) }
        var receipts: [SaveReceipt] = []
        for (index, write) in announced.enumerated() {
            receipts.append(try await store.handOver(key, Self.write(index + 2)))
            write.settle()
            // A job on the store's thread after it: a commit queued at the handover would have run by its end.
            try await store.database.perform { _ in }
        }
        for receipt in receipts { try await receipt.wait() }
        #expect(store.commits.load(ordering: .relaxed) - commits == 2, "one transaction for the first two, one for the third")
        #expect(store.writesSaved.load(ordering: .relaxed) - saves == 3)
        #expect(try await store.list(key)?.version == 4)
        #expect(store.queue.withLock { $0.inFlight } == 0)
    }

    @Test("a write held for others that never come is committed at the deadline, by the store's own thread")
    func theDeadlineCommitsWhatIsHeld() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory, maximumHold: .milliseconds(200))
        // On their way, and they stay there: more to come than wait.
        let stuck = try [#require(store.announceWrite()), #require(store.announceWrite())]
        defer { for write in stuck { write.settle() } }
        let write = try #require(store.announceWrite())
        let start = ContinuousClock.now
        let receipt = try await store.handOver(key, Self.write(2))
        write.settle()
        try await receipt.wait()
        #expect(ContinuousClock.now - start >= .milliseconds(150), "held until the deadline")
        #expect(try await store.list(key)?.version == 2)
    }

    @Test("a job queued for a deadline runs once it has passed, after the jobs queued meanwhile")
    func timedJobs() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("timed.sqlite").path)
        let order = Mutex<[String]>([])
        let start = ContinuousClock.now
        let ran = Mutex<Duration?>(nil)
        let timedRan = CountSignal()
        database.submit(at: .now() + .milliseconds(100)) { _ in
            order.withLock { $0.append("timed") }
            ran.withLock { $0 = ContinuousClock.now - start }
            timedRan.signal()
        }
        try await database.perform { _ in order.withLock { $0.append("at once") } }
        #expect(await timedRan.wait(for: 1))
        #expect(order.withLock { $0 } == ["at once", "timed"])
        let after = try #require(ran.withLock { $0 })
        #expect(after >= .milliseconds(100))
    }

    @Test("a write with nothing else on its way is committed at once (not held)")
    func aLoneWriteIsNotHeld() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory, maximumHold: .seconds(120))
        let write = try #require(store.announceWrite())
        let receipt = try await store.handOver(key, Self.write(2))
        write.settle()
        try await receipt.wait()  // would take 120 s if it were held
        try await store.save(key, Self.write(3))  // not announced at all
        #expect(try await store.list(key)?.version == 3)
    }

    @Test("a batch that all succeeds runs BEGIN, one statement per change and COMMIT: no savepoints")
    func noSavepointsWhenAllSucceed() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        let statistics = store.database.statistics
        let run = statistics.statementsRun
        let receipts = try await store.whileThreadBusy {
            [try await store.handOver(key, Self.write(2)), try await store.handOver(key, Self.write(3)), try await store.handOver(key, Self.write(4))]
        }
        for receipt in receipts { try await receipt.wait() }
        #expect(statistics.statementsRun - run == 5, "BEGIN, 3 inserts, COMMIT")
        #expect(try await store.list(key)?.version == 4)
    }

    @Test("a failing write in a batch: the batch is saved again write by write, the others are kept")
    func aFailingWriteIsRedoneAlone() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        let other = ListKey(session: key.session, demo: "mountains")
        _ = try await store.createList(other, StoreFixture.list(["m1"]))
        try await store.save(key, Self.write(2))
        let receipts = try await store.whileThreadBusy {
            [try await store.handOver(other, Self.write(2)),
             try await store.handOver(key, Self.write(2)),  // version 2 again: refused
             try await store.handOver(other, Self.write(3))]
        }
        try await receipts[0].wait()
        await #expect(throws: (any Error).self) { try await receipts[1].wait() }
        try await receipts[2].wait()
        #expect(try await store.list(other)?.version == 3)
        #expect(try await store.list(key)?.version == 2)
    }

    @Test("a list's write is announced before it waits for the writer and settled once handed over, or when it fails")
    func listWritesAnnounceThemselves() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: "{}")
        let list = try #require(visitor.list("numbers"))
        let store = try #require(list.storage?.store as? SQLiteSessionStore)
        let during = try await list.exclusive { _ in store.queue.withLock { $0.inFlight } }
        #expect(during == 1, "the running write is on its way")
        #expect(store.queue.withLock { $0.inFlight } == 0, "and settled once handed over")
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await list.exclusive { _ -> Int in throw Refused() } }
        #expect(store.queue.withLock { $0.inFlight } == 0, "a write that failed settled too")
    }
}

/// The group commit's policy, driven as a value: when a write is held, what ends the hold.
@Suite("Commit queue: a write is held while more writes are still on their way than wait, until half have come or the deadline passes")
struct CommitQueueTests {
    typealias Queue = SQLiteSessionStore.CommitQueue
    let key = ListKey(session: SessionID.random(), demo: "numbers")
    let t0 = DispatchTime(uptimeNanoseconds: 1_000_000_000)

    func at(milliseconds: Int) -> DispatchTime { t0 + .milliseconds(milliseconds) }

    @Test("alone: committed at once, no deadline")
    func alone() {
        var queue = Queue(maximumHold: .milliseconds(2))
        queue.announce()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(2), SaveReceipt(), now: t0) == .commit)
        #expect(queue.settle(now: t0) == .nothing, "already scheduled")
        #expect(queue.take().count == 1)
        #expect(queue.committed(now: t0) == .nothing)
    }

    @Test("four on their way: the first is held (one deadline armed), the second's arrival commits both (half have come)")
    func heldUntilHalfArrive() {
        var queue = Queue(maximumHold: .milliseconds(2))
        for _ in 0..<4 { queue.announce() }
        #expect(queue.add(key, SQLiteBatchCommitTests.write(2), SaveReceipt(), now: t0) == .armDeadline(at(milliseconds: 2)))
        #expect(queue.settle(now: t0) == .nothing)
        #expect(queue.add(key, SQLiteBatchCommitTests.write(3), SaveReceipt(), now: t0) == .commit, "two wait, two to come")
        #expect(queue.settle(now: t0) == .nothing)
        #expect(queue.take().count == 2)
        #expect(queue.committed(now: t0) == .nothing)
        #expect(queue.deadlinePassed(now: at(milliseconds: 2)) == .nothing, "nothing held: the deadline does nothing")
    }

    @Test("two on their way: the first is not held (as many are waiting as are to come)")
    func twoOnTheirWay() {
        var queue = Queue(maximumHold: .milliseconds(2))
        queue.announce()
        queue.announce()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(2), SaveReceipt(), now: t0) == .commit)
    }

    @Test("a write on its way that comes to nothing ends the hold when it settles")
    func settleEndsTheHold() {
        var queue = Queue(maximumHold: .milliseconds(2))
        for _ in 0..<3 { queue.announce() }
        #expect(queue.add(key, SQLiteBatchCommitTests.write(2), SaveReceipt(), now: t0) == .armDeadline(at(milliseconds: 2)))
        #expect(queue.settle(now: t0) == .nothing, "two to come")
        #expect(queue.settle(now: t0) == .commit, "another settled without a write: one to come, one waiting")
    }

    @Test("a slow write on its way: the deadline commits what is held, and nothing is held again until it settles")
    func aSlowWriteHoldsOnce() {
        var queue = Queue(maximumHold: .milliseconds(2))
        queue.announce()  // the slow ones
        queue.announce()
        queue.announce()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(2), SaveReceipt(), now: t0) == .armDeadline(at(milliseconds: 2)))
        #expect(queue.settle(now: t0) == .nothing)
        #expect(queue.deadlinePassed(now: at(milliseconds: 1)) == .armDeadline(at(milliseconds: 2)), "early: armed again")
        #expect(queue.deadlinePassed(now: at(milliseconds: 2)) == .commit)
        #expect(queue.take().count == 1)
        #expect(queue.committed(now: at(milliseconds: 2)) == .nothing)
        queue.announce()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(3), SaveReceipt(), now: at(milliseconds: 3)) == .commit, "not held for the slow ones again")
        #expect(queue.settle(now: at(milliseconds: 3)) == .nothing)
        _ = queue.take()
        #expect(queue.committed(now: at(milliseconds: 3)) == .nothing)
        #expect(queue.settle(now: at(milliseconds: 9)) == .nothing, "the slow ones settle, with nothing to save")
        #expect(queue.settle(now: at(milliseconds: 9)) == .nothing)
        queue.announce()
        queue.announce()
        queue.announce()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(4), SaveReceipt(), now: at(milliseconds: 10)) == .armDeadline(at(milliseconds: 12)),
                "held again")
    }

    @Test("after a batch of six, a lone write is held until three wait (half as many), or the deadline (which lowers the target)")
    func writersThatCommittedTogetherComeBackTogether() {
        var queue = Queue(maximumHold: .milliseconds(2))
        for _ in 0..<6 { queue.announce() }
        for version in 2...7 {
            _ = queue.add(key, SQLiteBatchCommitTests.write(version), SaveReceipt(), now: t0)
            _ = queue.settle(now: t0)
        }
        #expect(queue.take().count == 6)
        #expect(queue.committed(now: t0) == .nothing)
        #expect(queue.deadlinePassed(now: t0) == .nothing, "the first hold's deadline: nothing held")
        #expect(queue.add(key, SQLiteBatchCommitTests.write(8), SaveReceipt(), now: at(milliseconds: 1)) == .armDeadline(at(milliseconds: 3)))
        #expect(queue.add(key, SQLiteBatchCommitTests.write(9), SaveReceipt(), now: at(milliseconds: 1)) == .nothing)
        #expect(queue.add(key, SQLiteBatchCommitTests.write(10), SaveReceipt(), now: at(milliseconds: 1)) == .commit, "three wait")
        #expect(queue.take().count == 3)
        #expect(queue.committed(now: at(milliseconds: 1)) == .nothing)
        #expect(queue.add(key, SQLiteBatchCommitTests.write(11), SaveReceipt(), now: at(milliseconds: 2)) == .nothing, "held; a deadline is armed")
        #expect(queue.deadlinePassed(now: at(milliseconds: 3)) == .armDeadline(at(milliseconds: 4)), "the armed one was the last hold's")
        #expect(queue.deadlinePassed(now: at(milliseconds: 4)) == .commit)
        #expect(queue.take().count == 1)
        #expect(queue.committed(now: at(milliseconds: 4)) == .nothing)
        #expect(queue.add(key, SQLiteBatchCommitTests.write(12), SaveReceipt(), now: at(milliseconds: 5)) == .commit, "the target is one again")
    }

    @Test("writes arriving while a commit runs: committed after it, or held when others are on their way")
    func arrivalsDuringACommit() {
        var queue = Queue(maximumHold: .milliseconds(2))
        #expect(queue.add(key, SQLiteBatchCommitTests.write(2), SaveReceipt(), now: t0) == .commit, "not announced: at once")
        _ = queue.take()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(3), SaveReceipt(), now: t0) == .nothing, "a commit is running")
        #expect(queue.committed(now: t0) == .commit)
        _ = queue.take()
        queue.announce()
        queue.announce()
        #expect(queue.add(key, SQLiteBatchCommitTests.write(4), SaveReceipt(), now: t0) == .nothing, "a commit is running")
        #expect(queue.committed(now: t0) == .armDeadline(at(milliseconds: 2)), "held: another write is on its way")
    }
}
