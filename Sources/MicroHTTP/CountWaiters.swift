import Synchronization

extension HTTPServer {
    /// What a server holds open at one moment (see `waitForCounts(_:)`).
    struct Counts: Sendable, Hashable {
        /// TCP connections (`openConnectionCount`): event streams off libmicrohttpd included.
        var connections: Int
        /// Event streams (`openEventStreamCount`).
        var eventStreams: Int
    }
}

/// Tasks waiting for a server's counts to reach a state (`HTTPServer.waitForCounts(_:)`): each
/// waiter's predicate is checked when it starts waiting and again whenever a count changes
/// (`ServerCore.countsChanged()`), so a wait ends on the change that makes it true, never on a
/// clock.
///
/// Free when nobody waits: a change reads one atomic and takes no lock. No change is missed by
/// a waiter that registers meanwhile: it counts itself in `waiting` before it reads the counts,
/// and a change updates its count before it reads `waiting`. For `openConnections` both are
/// sequentially consistent atomics (one total order: a change that sees no waiter came before
/// the waiter's read of the count); for the streams, the registry's lock, which both take,
/// orders them.
final class CountWaiters: Sendable {
    private struct Waiter {
        let id: UInt64
        let predicate: @Sendable (HTTPServer.Counts) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// Tasks waiting or about to: what a change reads first.
    private let waiting = Atomic<Int>(0)
    private let nextID = Atomic<UInt64>(0)
    private let waiters = Mutex<[Waiter]>([])

    /// Whether any task waits (one atomic load: the whole cost of a change nobody waits for).
    var isWaiting: Bool { waiting.load(ordering: .sequentiallyConsistent) > 0 }

    /// Returns once `predicate` holds for `counts()` (at once if it does now); `false` if the
    /// task is cancelled first.
    func wait(until predicate: @escaping @Sendable (HTTPServer.Counts) -> Bool, counts: () -> HTTPServer.Counts) async -> Bool {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        waiting.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { waiting.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = waiters.withLock { waiters -> Bool? in
                    // Checked under the lock: a cancellation that looked before this
                    // registration found nothing to resume.
                    if Task.isCancelled { return false }
                    if predicate(counts()) { return true }
                    waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let cancelled = waiters.withLock { waiters -> Waiter? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index)
            }
            cancelled?.continuation.resume(returning: false)
        }
    }

    /// A count changed: resumes the waiters whose predicate holds for `counts()`. Outside the
    /// registry's lock (reading the counts takes it).
    func check(_ counts: () -> HTTPServer.Counts) {
        let now = counts()
        let ready = waiters.withLock { waiters -> [Waiter] in
            var ready: [Waiter] = []
            waiters.removeAll { waiter in
                guard waiter.predicate(now) else { return false }
                ready.append(waiter)
                return true
            }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }
}

extension ServerCore {
    /// The counts as `HTTPServer.Counts`. Takes the registry's lock.
    var counts: HTTPServer.Counts {
        HTTPServer.Counts(connections: openConnections.load(ordering: .sequentiallyConsistent), eventStreams: openStreamCount)
    }

    /// Called after `openConnections` or the registry's streams changed, outside the registry's
    /// lock: wakes the tasks whose counts now hold. One atomic load when nobody waits.
    @inline(__always)
    func countsChanged() {
        guard countWaiters.isWaiting else { return }
        countWaiters.check { counts }
    }
}
