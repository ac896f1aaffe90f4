import Foundation
import MicroHTTP
import ProcessMemory
import Synchronization

// `GET /metrics`, and the gauges of state it reads first: sessions, memory, the heavy-read
// queue (counters and histograms are recorded where things happen: `WebMetrics`).

extension WebApp {
    /// What `/metrics` and the gauges need beyond the app's own state.
    final class MetricsState: Sendable {
        /// The store's session count as last read (−1: not yet): read in the background, so a
        /// scrape never waits for the store.
        let storedSessions = Atomic<Int>(-1)
        let countingStored = Atomic<Bool>(false)
        /// The request bodies being read (the server's, once it runs).
        let bodies = Mutex<(@Sendable () -> Int)?>(nil)
    }

    /// `http_route` for a request: its route template (`RouteTemplates`).
    public static func routeTemplate(method: HTTPMethod, rawPath: String) -> String {
        RouteTemplates.shared.template(method: method.rawValue, rawPath: rawPath)
    }

    /// `GET /metrics`: the gauges recorded now, then the backend's exposition
    /// (``WebConfiguration/metricsExposition``); `nil` when the app has none (404).
    func metricsResponse() -> Response? {
        guard let exposition = configuration.metricsExposition else { return nil }
        recordGauges()
        return Response(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
                        body: exposition())
    }

    /// Records the gauges of state: sessions in memory (and in the store, as last counted; a
    /// new count starts in the background), the memory limit, RSS and each budget's bytes,
    /// and the heavy reads waiting. Called on each scrape and each maintenance round.
    func recordGauges() {
        let handles = WebMetrics.Handles.shared
        handles.sessionsInMemory.record(sessions.count)
        let stored = metricsState.storedSessions.load(ordering: .relaxed)
        if stored >= 0 { handles.sessionsInStore.record(stored) }
        if let store, !metricsState.countingStored.exchange(true, ordering: .acquiring) {
            let state = metricsState
            Task {
                if let count = try? await store.sessionCount() { state.storedSessions.store(count, ordering: .relaxed) }
                state.countingStored.store(false, ordering: .releasing)
            }
        }
        handles.limit.record(memory.limit)
        if let resident = ResidentMemory.bytes() { handles.rss.record(resident) }
        let streams = streamBudget.withLock { $0 }
        let bodies = metricsState.bodies.withLock { $0 }
        handles.budgets["sessions"]?.record(sessions.memoryBudget?.usedBytes ?? 0)
        handles.budgets["streams"]?.record(streams?.heldBytes ?? 0)
        handles.budgets["bodies"]?.record(bodies?() ?? 0)
        handles.budgets["caches"]?.record(DroppableCaches.shared.heldBytes)
        handles.heavyQueue.record(heavyWork.waitingCount)
    }

    /// Counts what the memory governor shed in one round (`diffableweb_memory_shed_total`).
    static func recordShed(_ shed: [(MemoryGovernor.Step, Int)]) {
        for (step, count) in shed where count > 0 {
            let name = switch step {
            case .caches: "caches"
            case .idleSessions: "idle_sessions"
            case .slowStreams: "slow_streams"
            }
            WebMetrics.Handles.shared.shedSteps[name]?.increment(by: count)
        }
    }
}

extension RouteTemplates {
    /// The server's routes (pages and API).
    static let shared = RouteTemplates()
}
