import Foundation
import MicroHTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs heavy reads (laying out or serialising a whole large list) on threads of their own,
/// taking turns between sessions, so that one session's heavy requests never hold the
/// cooperative pool that every other session's keystrokes, actions and pages run on.
///
/// Without it a 100,000-item layout runs inside its handler, on a pool thread: the pool has one
/// thread per core, so two such requests on two cores and every other request waits seconds
/// (issue 22, finding 3). Here the handler only waits (suspended, holding no thread), and the
/// work runs on at most ``Limits/threads`` threads of this queue:
///
/// - **Round-robin between sessions**: a session whose job finished goes to the back of the
///   line, so n busy sessions each get 1/n of the queue, whatever each one sends.
/// - **One job in flight per session**: a session cannot take more than one of the threads.
/// - **Bounded**: at most ``Limits/waitingPerSession`` jobs wait per session and
///   ``Limits/waitingTotal`` in all; beyond, `429 too_many_requests` with `Retry-After`.
/// - **Abandoned jobs do not run**: when the waiting handler's task is cancelled (its client
///   hung up), a job that has not started is dropped.
///
/// Threads are started when work arrives and end when none is left: an idle queue costs no thread.
/// They run at a lower priority (nice 10, ``Limits/niceness``): when every core is busy, a
/// keystroke's handler gets a core at once, and the heavy reads take what is left.
///
/// ```swift
/// let heavy = HeavyWork(limits: .init(threads: 1))
/// let body = try await heavy.run(for: session.shareID.value) { layoutBody(list, container) }
/// ```
final class HeavyWork: Sendable {
    struct Limits: Sendable {
        /// Threads running jobs at once (default: half the cores, at least one), so that the
        /// cooperative pool keeps cores for everything else.
        var threads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        /// Jobs of one session waiting for their turn (besides the one running).
        var waitingPerSession = 8
        /// Jobs waiting, all sessions together.
        var waitingTotal = 256
        /// The threads' nice value (Linux: per thread), above the cooperative threads' 0.
        var niceness: Int32 = 10
    }

    let limits: Limits
    private let state = Mutex(State())
    /// Called once a job is queued (not when it is refused), outside the queue's lock: what a
    /// test awaits instead of polling ``waitingCount``.
    private let didQueue: (@Sendable () -> Void)?

    init(limits: Limits = Limits(), didQueue: (@Sendable () -> Void)? = nil) {
        var limits = limits
        limits.threads = max(1, limits.threads)
        self.limits = limits
        self.didQueue = didQueue
    }

    private struct Job: Sendable {
        let id: UInt64
        let owner: String
        /// Runs the work and resumes the waiting handler with its result.
        let run: @Sendable () -> Void
        /// Resumes the waiting handler with `abandoned`, the work not run.
        let abandon: @Sendable () -> Void
    }

    private struct State {
        var nextID: UInt64 = 1
        /// Each session's waiting jobs, oldest first (no entry: none waiting).
        var waiting: [String: [Job]] = [:]
        var waitingCount = 0
        /// Sessions whose next job may start, in turn order: a session is here while it has a
        /// job waiting and none running.
        var turns: [String] = []
        var running: Set<String> = []
        var threads = 0
    }

    /// Jobs waiting for their turn, all sessions together.
    var waitingCount: Int { state.withLock { $0.waitingCount } }

    /// Jobs running now (one at most per session).
    var runningCount: Int { state.withLock { $0.running.count } }

    static let abandoned = HTTPError(.serviceUnavailable, code: "request_abandoned", message: "The client left before the work started")

    static func busy(_ message: String) -> HTTPError {
        HTTPError(.tooManyRequests, code: "too_many_requests", message: message, headers: ["Retry-After": "1"])
    }

    /// Runs `work` on the queue in `owner`'s turn and returns its result. Throws `429
    /// too_many_requests` at once when the queue is full, ``abandoned`` when the task is
    /// cancelled before the work started (a cancellation after that waits for the result).
    /// - Complexity: O(sessions waiting) to queue, plus the work itself.
    func run<T: Sendable>(for owner: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let queued = ContinuousClock.now
                let job = Job(id: id, owner: owner,
                              run: {
                                  WebMetrics.heavyReadWaited(ContinuousClock.now - queued)
                                  continuation.resume(with: Result(catching: work))
                              },
                              abandon: { continuation.resume(throwing: Self.abandoned) })
                let (refusal, startThread) = state.withLock { s in enqueue(job, &s) }
                if let refusal {
                    continuation.resume(throwing: refusal)
                    return
                }
                if startThread { startWorker() }
                didQueue?()
                // A cancellation that came before the job was queued found nothing to drop.
                if Task.isCancelled { drop(id, owner: owner) }
            }
        } onCancel: {
            drop(id, owner: owner)
        }
    }

    /// Queues `job` (or says why not) and whether a thread must be started for it.
    private func enqueue(_ job: Job, _ s: inout State) -> (refusal: HTTPError?, startThread: Bool) {
        let mine = s.waiting[job.owner]?.count ?? 0
        guard mine < limits.waitingPerSession else {
            return (Self.busy("This session already has \(mine) heavy requests waiting; retry after one is answered"), false)
        }
        guard s.waitingCount < limits.waitingTotal else {
            return (Self.busy("The server has \(s.waitingCount) heavy requests waiting; retry shortly"), false)
        }
        s.waiting[job.owner, default: []].append(job)
        s.waitingCount += 1
        if mine == 0 && !s.running.contains(job.owner) { s.turns.append(job.owner) }
        guard s.threads < limits.threads, !s.turns.isEmpty else { return (nil, false) }
        s.threads += 1
        return (nil, true)
    }

    /// Drops a job that has not started (its handler was cancelled) and resumes its handler.
    private func drop(_ id: UInt64, owner: String) {
        let job = state.withLock { s -> Job? in
            guard var jobs = s.waiting[owner], let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
            let job = jobs.remove(at: index)
            s.waiting[owner] = jobs.isEmpty ? nil : jobs
            s.waitingCount -= 1
            if jobs.isEmpty { s.turns.removeAll { $0 == owner } }
            return job
        }
        job?.abandon()
    }

    private func startWorker() {
        let thread = Thread { [self] in work() }
        thread.name = "diffable-web.heavy"
        thread.start()
    }

    /// A worker: takes the next session's next job until no session has one waiting, then ends.
    private func work() {
        #if canImport(Glibc)
        // On Linux the nice value is the calling thread's own (`who` 0 names it).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, limits.niceness)
        #endif
        var finished: String?
        while true {
            let job = state.withLock { s -> Job? in
                if let owner = finished {
                    s.running.remove(owner)
                    // Its next job waits for every other session's turn.
                    if s.waiting[owner] != nil { s.turns.append(owner) }
                }
                while !s.turns.isEmpty {
                    let owner = s.turns.removeFirst()
                    guard var jobs = s.waiting[owner], !jobs.isEmpty else { continue }
                    let job = jobs.removeFirst()
                    s.waiting[owner] = jobs.isEmpty ? nil : jobs
                    s.waitingCount -= 1
                    s.running.insert(owner)
                    return job
                }
                s.threads -= 1
                return nil
            }
            guard let job else { return }
            job.run()
            finished = job.owner
        }
    }
}
