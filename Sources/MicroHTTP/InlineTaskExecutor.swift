import Dispatch
import Synchronization

/// A task executor that runs a request's handler on the thread that dispatched it, up to the
/// point where the handler waits for something, and on Dispatch's threads after that.
///
/// A keystroke's handler hops between default actors (the list's writer, the session table):
/// started as an ordinary task, each hop went through the cooperative pool, so a request cost a
/// wake-up of a pool thread and a resume of libmicrohttpd's connection (3.6 context switches a
/// keystroke). With this executor as the task's preference, those actors' code runs on the
/// preferred executor too (SE-0417): `drain()` runs every job queued while it drains, on the
/// calling thread, and stops when none is left (the task finished, or waits for another
/// thread). A job queued after that runs on a Dispatch thread, still on this executor.
///
/// ```swift
/// let executor = InlineTaskExecutor()
/// Task(executorPreference: executor) { await handle(request) }  // queued, not yet run
/// executor.drain()  // runs it here until it ends or waits
/// ```
final class InlineTaskExecutor: TaskExecutor, Sendable {
    private struct State {
        var draining = true
        var jobs: [UnownedJob] = []
    }

    private let state = Mutex(State())

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = state.withLock { s -> Bool in
            guard s.draining else { return false }
            s.jobs.append(job)
            return true
        }
        if !queued {
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Runs the queued jobs, and those they queue, on the calling thread until none is queued;
    /// from then on jobs go to Dispatch. Called once.
    func drain() {
        while let job = state.withLock({ s -> UnownedJob? in
            guard !s.jobs.isEmpty else {
                s.draining = false
                return nil
            }
            return s.jobs.removeFirst()
        }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
