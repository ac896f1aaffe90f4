import Foundation
import Synchronization

/// A task executor with a thread of its own, for work that must not wait for the cooperative
/// pool: when every pool thread runs a long handler (24 layouts of a 100,000-item list), a task
/// on the pool may not run for seconds. A task started with this executor as its preference runs
/// here, and so does the code of default actors it calls.
///
/// ```swift
/// let executor = DedicatedThreadExecutor(name: "stop")
/// Task(executorPreference: executor) { await app.close() }
/// ```
/// The thread lives as long as the process (one is made per server stop).
final class DedicatedThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
