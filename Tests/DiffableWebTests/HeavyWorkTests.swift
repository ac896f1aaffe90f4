import Foundation
import HTTPTestSupport
import MicroHTTP
import Synchronization
import Testing
@testable import DiffableWeb

/// The heavy-work queue takes turns between sessions, runs one job per session at a time, is
/// bounded, and drops a job whose handler left before it started (issue 22, finding 3).
@Suite("Heavy work: a fair, bounded queue off the cooperative threads")
struct HeavyWorkTests {
    // Every wait here is for an event the queue or a job signals (a job queued, a job started),
    // never a clock: the units phase's ~300 tests, many CPU-bound, share two cooperative
    // threads, and a task that must start before a poll can see its job may wait a minute
    // behind them (a fresh-clone run failed "x was queued" after 60 s of polling).

    /// What the jobs did, in order, and a gate that holds the job now running.
    final class Recorder: Sendable {
        private let log = Mutex<[String]>([])
        private let open = Atomic(false)
        /// Jobs started, signalled by the jobs themselves.
        let starts = CountSignal()
        /// Jobs the queue took, signalled by the queue (`HeavyWork`'s `didQueue`).
        let queued = CountSignal()
        var order: [String] { log.withLock { $0 } }
        func started(_ name: String) {
            log.withLock { $0.append(name) }
            starts.signal()
        }
        func release() { open.store(true, ordering: .relaxed) }
        /// A job that records itself and waits (on its heavy thread) until `release()`.
        func gated(_ name: String) -> @Sendable () -> String {
            { [self] in
                started(name)
                while !open.load(ordering: .relaxed) { usleep(1_000) }
                return name
            }
        }
        func job(_ name: String) -> @Sendable () -> String {
            { [self] in started(name); return name }
        }
    }

    /// A queue whose `didQueue` signals the recorder.
    func heavyWork(_ limits: HeavyWork.Limits, _ recorder: Recorder) -> HeavyWork {
        HeavyWork(limits: limits) { recorder.queued.signal() }
    }

    /// Starts `work` for `owner` in a task, and returns once the queue has taken it.
    func queue(_ heavy: HeavyWork, _ owner: String, _ recorder: Recorder, _ name: String,
               _ work: (@Sendable () -> String)? = nil) async -> Task<String, any Error> {
        let before = recorder.queued.count
        let task = Task { try await heavy.run(for: owner, work ?? recorder.job(name)) }
        #expect(await recorder.queued.wait(for: before + 1), "\(name) was queued")
        return task
    }

    @Test("jobs run in turns between sessions: each session's next job waits for every other session's")
    func roundRobin() async throws {
        let recorder = Recorder()
        let heavy = heavyWork(.init(threads: 1), recorder)
        let first = await queue(heavy, "x", recorder, "x", recorder.gated("x"))
        #expect(await recorder.starts.wait(for: 1) && recorder.order == ["x"])
        var tasks: [Task<String, any Error>] = []
        for (owner, name) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("b", "b2"), ("c", "c1")] {
            tasks.append(await queue(heavy, owner, recorder, name))
        }
        recorder.release()
        _ = try await first.value
        for task in tasks { _ = try await task.value }
        #expect(recorder.order == ["x", "a1", "b1", "c1", "a2", "b2", "a3"])
    }

    @Test("a session has one job running at a time, even with threads free")
    func oneJobPerSession() async throws {
        let recorder = Recorder()
        let heavy = heavyWork(.init(threads: 2), recorder)
        let a1 = await queue(heavy, "a", recorder, "a1", recorder.gated("a1"))
        #expect(await recorder.starts.wait(for: 1) && recorder.order == ["a1"])
        let a2 = await queue(heavy, "a", recorder, "a2")
        let b1 = await queue(heavy, "b", recorder, "b1")
        #expect(try await b1.value == "b1", "another session's job runs on the free thread")
        #expect(recorder.order == ["a1", "b1"], "a2 waits for a1")
        recorder.release()
        _ = try await a1.value
        #expect(try await a2.value == "a2")
    }

    @Test("past a session's waiting bound, or the queue's, a job is refused 429 with Retry-After")
    func bounded() async throws {
        let recorder = Recorder()
        let heavy = heavyWork(.init(threads: 1, waitingPerSession: 2, waitingTotal: 3), recorder)
        let running = await queue(heavy, "x", recorder, "x", recorder.gated("x"))
        #expect(await recorder.starts.wait(for: 1) && recorder.order == ["x"])
        let a1 = await queue(heavy, "a", recorder, "a1")
        let a2 = await queue(heavy, "a", recorder, "a2")
        for (owner, what) in [("a", "the session's bound"), ("c", "the queue's bound")] {
            if owner == "c" { _ = await queue(heavy, "b", recorder, "b1") }
            do {
                _ = try await heavy.run(for: owner, recorder.job("refused"))
                Issue.record("past \(what), a job was queued")
            } catch let error as HTTPError {
                #expect(error.status == .tooManyRequests && error.code == "too_many_requests", "\(error)")
                #expect(error.headers["Retry-After"] == "1")
            }
        }
        recorder.release()
        _ = try await running.value
        #expect(try await a1.value == "a1")
        #expect(try await a2.value == "a2")
        #expect(!recorder.order.contains("refused"))
    }

    @Test("a job whose handler was cancelled before it started does not run")
    func abandoned() async throws {
        let recorder = Recorder()
        let heavy = heavyWork(.init(threads: 1), recorder)
        let running = await queue(heavy, "x", recorder, "x", recorder.gated("x"))
        #expect(await recorder.starts.wait(for: 1) && recorder.order == ["x"])
        let left = await queue(heavy, "a", recorder, "left")
        left.cancel()
        do {
            _ = try await left.value
            Issue.record("the abandoned job answered")
        } catch let error as HTTPError {
            #expect(error.code == "request_abandoned")
        }
        #expect(heavy.waitingCount == 0)
        let after = await queue(heavy, "a", recorder, "after")
        recorder.release()
        _ = try await running.value
        #expect(try await after.value == "after")
        #expect(recorder.order == ["x", "after"])
    }
}
