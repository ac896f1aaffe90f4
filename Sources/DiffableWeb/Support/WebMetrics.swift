import CoreMetrics
import MicroHTTP
import Synchronization

/// DiffableWeb's own metrics (sessions, memory, lists, the store, heavy reads, resumed
/// streams), through swift-metrics: whatever backend the process bootstrapped, none by default.
/// The handles are made on first use, after `main` bootstrapped the backend; a label set
/// (a list's name, a store's kind) gets its handle once. docs/metrics.md lists them all.
public enum WebMetrics {
    static let sessions = MetricInfo(
        "diffableweb_sessions", .gauge, labels: ["location"],
        help: "Sessions held in memory now (location=memory), and sessions saved in the store (location=store).")
    static let evictions = MetricInfo(
        "diffableweb_session_evictions_total", .counter, labels: ["reason"],
        help: "Sessions dropped from memory: idle past the timeout, past --max-sessions (capacity), or to free memory.")
    static let memoryLimit = MetricInfo(
        "diffableweb_memory_limit_bytes", .gauge, help: "The process's memory limit (0: none).")
    static let resident = MetricInfo(
        "process_resident_memory_bytes", .gauge, help: "Resident memory size in bytes.")
    static let budgetUsed = MetricInfo(
        "diffableweb_memory_budget_used_bytes", .gauge, labels: ["budget"],
        help: "What each memory budget holds now: sessions' lists, streams' unsent bytes and deflate states, request bodies, caches.")
    static let shed = MetricInfo(
        "diffableweb_memory_shed_total", .counter, labels: ["step"],
        help: "What the memory governor shed as RSS neared the limit, by step.")
    static let listWrites = MetricInfo(
        "diffableweb_list_writes_total", .counter, labels: ["list"],
        help: "Writes applied to a list (actions and API operations), by the list's name.")
    static let commitDuration = MetricInfo(
        "diffableweb_store_commit_duration_seconds", .histogram, labels: ["store"],
        buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
        help: "Time one commit of the session store took.")
    static let commitBatch = MetricInfo(
        "diffableweb_store_commit_batch_size", .histogram, labels: ["store"], buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
        help: "Saves in one commit (SQLite's group commit, PostgreSQL's pipelined saves).")
    static let heavyDepth = MetricInfo(
        "diffableweb_heavy_work_queue_depth", .gauge,
        help: "Heavy reads (large lists' layouts and snapshots) waiting for a heavy-read thread.")
    static let heavyWait = MetricInfo(
        "diffableweb_heavy_work_wait_duration_seconds", .histogram, buckets: MetricInfo.durationBuckets,
        help: "Time a heavy read waited for its thread.")
    static let resumes = MetricInfo(
        "diffableweb_stream_resumes_total", .counter, labels: ["outcome"],
        help: "Streams that reconnected with Last-Event-ID: served from the event log (replayed), or sent a snapshot because the log had moved on.")

    /// Every family the server records: the HTTP server's and these.
    public static let catalog: [MetricInfo] = HTTPServer.metricsCatalog + [
        sessions, evictions, memoryLimit, resident, budgetUsed, shed, listWrites, commitDuration, commitBatch,
        heavyDepth, heavyWait, resumes,
    ]

    /// The stores that report commits.
    public enum StoreKind: String, Sendable {
        case sqlite, postgres
    }

    /// A commit of `saves` saves took `duration` (a store of ours reports each one).
    public static func storeCommitted(_ store: StoreKind, saves: Int, duration: Duration) {
        let handles = store == .sqlite ? StoreHandles.sqlite : StoreHandles.postgres
        handles.duration.recordNanoseconds(duration.nanoseconds)
        handles.batch.record(saves)
    }

    /// Makes the fixed handles, and each list's writes counter (at 0), so that every family
    /// is in the first scrape.
    static func prepare(lists: [String]) {
        let handles = Handles.shared
        handles.listWrites.withLock { counters in
            for list in lists where counters[list] == nil {
                counters[list] = Counter(label: listWrites.name, dimensions: [("list", list)])
            }
        }
    }

    static func listWritten(_ list: String) {
        Handles.shared.listWrites.withLock { counters in
            if let counter = counters[list] { return counter }
            let counter = Counter(label: listWrites.name, dimensions: [("list", list)])
            counters[list] = counter
            return counter
        }.increment()
    }

    enum Eviction { case idle, capacity, memory }

    static func evicted(_ reason: Eviction, count: Int = 1) {
        guard count > 0 else { return }
        let handles = Handles.shared
        (reason == .idle ? handles.evictedIdle : reason == .capacity ? handles.evictedCapacity : handles.evictedMemory).increment(by: count)
    }

    static func resumed(replayed: Bool) {
        (replayed ? Handles.shared.replayed : Handles.shared.snapshotSent).increment()
    }

    static func heavyReadWaited(_ duration: Duration) {
        Handles.shared.heavyWait.recordNanoseconds(duration.nanoseconds)
    }

    /// The handles, made once (on first use: after the backend is bootstrapped).
    final class Handles: Sendable {
        static let shared = Handles()

        let sessionsInMemory = Gauge(label: sessions.name, dimensions: [("location", "memory")])
        let sessionsInStore = Gauge(label: sessions.name, dimensions: [("location", "store")])
        let evictedIdle = Counter(label: evictions.name, dimensions: [("reason", "idle")])
        let evictedCapacity = Counter(label: evictions.name, dimensions: [("reason", "capacity")])
        let evictedMemory = Counter(label: evictions.name, dimensions: [("reason", "memory")])
        let limit = Gauge(label: memoryLimit.name)
        let rss = Gauge(label: resident.name)
        let budgets: [String: Gauge] = Dictionary(uniqueKeysWithValues: ["sessions", "streams", "bodies", "caches"].map {
            ($0, Gauge(label: budgetUsed.name, dimensions: [("budget", $0)]))
        })
        let shedSteps: [String: Counter] = Dictionary(uniqueKeysWithValues: ["caches", "idle_sessions", "slow_streams"].map {
            ($0, Counter(label: shed.name, dimensions: [("step", $0)]))
        })
        let listWrites = Mutex<[String: Counter]>([:])
        let heavyQueue = Gauge(label: heavyDepth.name)
        let heavyWait = CoreMetrics.Timer(label: WebMetrics.heavyWait.name)
        let replayed = Counter(label: resumes.name, dimensions: [("outcome", "replayed")])
        let snapshotSent = Counter(label: resumes.name, dimensions: [("outcome", "snapshot")])
    }
}

/// A store's commit handles, made when that store first commits (a SQLite node shows no
/// PostgreSQL series).
struct StoreHandles: Sendable {
    static let sqlite = StoreHandles(.sqlite)
    static let postgres = StoreHandles(.postgres)

    let duration: CoreMetrics.Timer
    let batch: Recorder

    init(_ store: WebMetrics.StoreKind) {
        duration = CoreMetrics.Timer(label: WebMetrics.commitDuration.name, dimensions: [("store", store.rawValue)])
        batch = Recorder(label: WebMetrics.commitBatch.name, dimensions: [("store", store.rawValue)], aggregate: true)
    }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating past 292 years).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ attoseconds / 1_000_000_000
    }
}
