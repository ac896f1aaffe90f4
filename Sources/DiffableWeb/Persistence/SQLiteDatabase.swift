import Dispatch
import Foundation
import Synchronization

/// An SQLite database file and the one thread that uses it: the thread opens the connection
/// (``SQLiteConnection``, `NOMUTEX`), runs the jobs handed to it one at a time in the order
/// they came, and closes the connection once the database is released. Callers await a job
/// through a continuation (``perform(_:)``), so no SQLite call, and none of its I/O, runs on
/// Swift's cooperative threads (two of them on two cores: one blocked there, in a commit's
/// write or a WAL checkpoint, is half the server).
///
/// # Why a thread of its own, not a serial `DispatchQueue`
/// A serial queue would also run one job at a time, but on whichever Dispatch worker is free:
/// a dedicated thread keeps the connection on one OS thread for its whole life, so "one owner"
/// is something the connection checks on every statement (``SQLiteStatistics``) and a person
/// sees by name (`diffable-sqlite` in `top -H` or a debugger). Its loop also takes every
/// job waiting at once: one wake-up per burst, not per job.
///
/// ```swift
/// let database = try SQLiteDatabase(path: path)
/// let count = try await database.perform { try $0.query("SELECT count(*) FROM sessions") }
/// ```
final class SQLiteDatabase: Sendable {
    typealias Job = @Sendable (SQLiteConnection) -> Void
    let statistics: SQLiteStatistics
    private let jobs: JobQueue

    /// Opens (creating it if needed) the database file at `path`, on a new thread named `name`
    /// (Linux keeps 15 bytes of it).
    init(path: String, name: String = "diffable-sqlite") throws {
        let jobs = JobQueue(), statistics = SQLiteStatistics()
        let opened = DispatchSemaphore(value: 0)
        let failure = Slot<(any Error)?>(nil)
        let thread = Thread {
            // Named from inside, through Linux's own file for it: Foundation's
            // `Thread.current.name` missed now and then (1 thread in 10 kept its old name).
            // Linux keeps 15 bytes of a name.
            try? String(decoding: name.utf8.prefix(15), as: UTF8.self).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            jobs.claim()
            let connection: SQLiteConnection
            do {
                connection = try SQLiteConnection(path: path, statistics: statistics)
            } catch {
                failure.value.withLock { $0 = error }
                opened.signal()
                return
            }
            opened.signal()
            while let batch = jobs.next() {
                for job in batch { job(connection) }
            }
        }
        thread.start()
        opened.wait()
        if let error = failure.value.withLock({ $0 }) { throw error }
        (self.jobs, self.statistics) = (jobs, statistics)
    }

    /// The thread runs what is queued, closes the connection and ends.
    deinit { jobs.close() }

    /// Queues `job` for the database's thread.
    func submit(_ job: @escaping Job) {
        jobs.append(job)
    }

    /// Queues `job` for the database's thread once `deadline` has passed: the thread sleeps
    /// until then if it has nothing else to do (no timer of Dispatch's, no other thread woken).
    func submit(at deadline: DispatchTime, _ job: @escaping Job) {
        jobs.append(job, at: deadline)
    }

    /// Runs `body` on the database's thread and returns what it returns.
    func perform<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { connection in continuation.resume(with: Result { try body(connection) }) }
        }
    }

    /// Runs `body` on the database's thread while the calling thread waits: for work before
    /// the server starts (schema, migrations) and for tests. Never from the database's thread.
    func performAndWait<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) throws -> T {
        guard !jobs.isOwner else { throw SQLiteError(message: "a job of the store's thread waited for the store's thread") }
        let done = DispatchSemaphore(value: 0)
        let result = Slot<Result<T, any Error>>(.failure(SQLiteError(message: "not run")))
        submit { connection in
            let outcome = Result { try body(connection) }
            result.value.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.value.withLock { $0 }.get()
    }

    // Blocking shorthands (``performAndWait(_:)``): start-up and tests.

    func execute(_ sql: String) throws { try performAndWait { try $0.execute(sql) } }
    func run(_ sql: String, _ values: [SQLValue] = []) throws { try performAndWait { try $0.run(sql, values) } }
    func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] { try performAndWait { try $0.query(sql, values) } }
}

/// A value handed from the database's thread to a thread that waits for it.
private final class Slot<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
}

/// The jobs waiting for a database's thread. The thread takes all of them at once, and sleeps
/// on a semaphore when there are none (signalled once by the next job, or by ``close()``),
/// until the first job queued for a deadline is due, if any.
private final class JobQueue: Sendable {
    private struct State {
        var jobs: [SQLiteDatabase.Job] = []
        /// Jobs queued for when their deadline has passed.
        var timed: [(deadline: DispatchTime, job: SQLiteDatabase.Job)] = []
        var sleeping = false
        var closed = false
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let owner = Atomic<UInt>(0)

    /// Records the calling thread as the one that runs the jobs.
    func claim() { owner.store(UInt(pthread_self()), ordering: .releasing) }
    var isOwner: Bool { pthread_equal(pthread_self(), pthread_t(owner.load(ordering: .acquiring))) != 0 }

    func append(_ job: @escaping SQLiteDatabase.Job) {
        let sleeper = state.withLock { state -> Bool in
            state.jobs.append(job)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if sleeper { wake.signal() }
    }

    /// Queues `job` for when `deadline` has passed (the sleeping thread wakes to time its sleep).
    func append(_ job: @escaping SQLiteDatabase.Job, at deadline: DispatchTime) {
        let sleeper = state.withLock { state -> Bool in
            state.timed.append((deadline, job))
            defer { state.sleeping = false }
            return state.sleeping
        }
        if sleeper { wake.signal() }
    }

    /// Ends the thread once the jobs queued so far have run.
    func close() {
        let sleeper = state.withLock { state -> Bool in
            state.closed = true
            defer { state.sleeping = false }
            return state.sleeping
        }
        if sleeper { wake.signal() }
    }

    /// Every job waiting, in order (with the timed jobs now due); waits while there is none,
    /// until the next timed job is due; `nil` once closed and empty.
    func next() -> [SQLiteDatabase.Job]? {
        while true {
            let (batch, until) = state.withLock { state -> ([SQLiteDatabase.Job]?, DispatchTime?) in
                if !state.timed.isEmpty {
                    let now = DispatchTime.now()
                    for timed in state.timed where timed.deadline <= now { state.jobs.append(timed.job) }
                    state.timed.removeAll { $0.deadline <= now }
                }
                if state.jobs.isEmpty {
                    if state.closed { return (nil, nil) }
                    state.sleeping = true
                    return ([], state.timed.map(\.deadline).min())
                }
                defer { state.jobs = [] }
                return (state.jobs, nil)
            }
            guard let batch else { return nil }
            if !batch.isEmpty { return batch }
            if let until { _ = wake.wait(timeout: until) } else { wake.wait() }
        }
    }
}
