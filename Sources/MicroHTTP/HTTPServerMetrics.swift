import CoreMetrics
import Synchronization

/// The server's metrics, through swift-metrics (whatever backend the process bootstrapped;
/// none: they cost a no-op call). Handles are made once: at start for the fixed ones, and the
/// first time a label set is seen for the others (a bounded set: route templates, methods,
/// status classes, error codes, event names). Names follow the OpenTelemetry semantic
/// conventions in Prometheus form (docs/metrics.md).
final class HTTPServerMetrics: Sendable {
    static let requestDuration = MetricInfo(
        "http_server_request_duration_seconds", .histogram,
        labels: ["http_request_method", "http_route", "http_response_status_class"], buckets: MetricInfo.durationBuckets,
        help: "Time from a request's head to its response being queued (an event stream: until it opens).")
    static let activeRequests = MetricInfo(
        "http_server_active_requests", .gauge, labels: ["http_request_method"],
        help: "Requests whose head arrived and whose response is not yet queued.")
    static let refusals = MetricInfo(
        "diffableweb_http_refusals_total", .counter, labels: ["http_response_status_code", "error_type"],
        help: "Requests refused by a limit (413, 414, 422, 429, 431, 503), by the JSON error's code (library: refused by libmicrohttpd itself).")
    static let streamsOpen = MetricInfo(
        "diffableweb_event_streams_open", .gauge, labels: ["encoding"],
        help: "Server-sent event streams open now, plain or gzip.")
    static let eventsSent = MetricInfo(
        "diffableweb_events_sent_total", .counter, labels: ["event"],
        help: "Events queued on open streams, by SSE event name (heartbeat: keep-alive comments).")
    static let eventBytes = MetricInfo(
        "diffableweb_event_bytes_sent_total", .counter, labels: ["event"],
        help: "Bytes of those events as they go on the wire (after gzip).")

    /// Every family this module records.
    public static let catalog = [requestDuration, activeRequests, refusals, streamsOpen, eventsSent, eventBytes]

    /// The statuses counted as refusals.
    static let refusalStatuses: Set<Int> = [413, 414, 422, 429, 431, 503]
    /// Methods as labels: the standard ones, and `_OTHER` for anything else a client sends.
    static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "_OTHER"]

    private let routeTemplate: @Sendable (HTTPMethod, String) -> String
    /// The backend when the server was made (the bootstrapped one, or a task-local one in
    /// tests): handles made later, on whichever thread, come from it too.
    private let factory: any MetricsFactory
    private let active: [Meter]
    private let streams: (plain: Meter, gzip: Meter)
    private let durations = Mutex<[DurationKey: Timer]>([:])
    private let refusalCounters = Mutex<[RefusalKey: Counter]>([:])
    private let eventCounters = Mutex<[String: EventCounters]>([:])

    private struct DurationKey: Hashable {
        var method: Int
        var route: String
        var statusClass: Int
    }

    private struct RefusalKey: Hashable {
        var status: Int
        var code: String
    }

    /// One event name's two counters.
    final class EventCounters: Sendable {
        let events: Counter
        let bytes: Counter
        init(_ name: String, factory: any MetricsFactory) {
            events = Counter(label: HTTPServerMetrics.eventsSent.name, dimensions: [("event", name)], factory: factory)
            bytes = Counter(label: HTTPServerMetrics.eventBytes.name, dimensions: [("event", name)], factory: factory)
        }
    }

    init(routeTemplate: @escaping @Sendable (HTTPMethod, String) -> String) {
        self.routeTemplate = routeTemplate
        let factory = MetricsSystem.factory
        self.factory = factory
        active = Self.methods.map { Meter(label: Self.activeRequests.name, dimensions: [("http_request_method", $0)], factory: factory) }
        streams = (Meter(label: Self.streamsOpen.name, dimensions: [("encoding", "plain")], factory: factory),
                   Meter(label: Self.streamsOpen.name, dimensions: [("encoding", "gzip")], factory: factory))
    }

    /// The request's route template (the `http_route` label).
    func route(_ method: HTTPMethod, _ rawPath: String) -> String { routeTemplate(method, rawPath) }

    static func methodIndex(_ method: HTTPMethod) -> Int {
        switch method.rawValue {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "DELETE": 4
        case "PATCH": 5
        case "OPTIONS": 6
        default: 7
        }
    }

    /// A request's head arrived.
    func requestStarted(_ method: HTTPMethod) {
        active[Self.methodIndex(method)].increment()
    }

    /// The request's response was queued, or the request ended without one (`status` nil):
    /// it is no longer active; an answered one is timed under its route.
    func requestEnded(_ method: HTTPMethod, rawPath: String, status: Int?, started: ContinuousClock.Instant) {
        let index = Self.methodIndex(method)
        active[index].decrement()
        guard let status else { return }
        let key = DurationKey(method: index, route: routeTemplate(method, rawPath), statusClass: status / 100)
        let timer = durations.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Timer(label: Self.requestDuration.name, dimensions: [
                ("http_request_method", Self.methods[index]), ("http_route", key.route),
                ("http_response_status_class", "\(key.statusClass)xx"),
            ], factory: factory)
            timers[key] = timer
            return timer
        }
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// A response with `status` was queued: a refusal when the status is one of
    /// ``refusalStatuses``, counted under the JSON error's code (from `body`).
    func responseQueued(status: Int, body: [UInt8]) {
        guard Self.refusalStatuses.contains(status) else { return }
        refused(status: status, code: Self.errorCode(in: body) ?? "unknown")
    }

    /// libmicrohttpd refused a request head itself (a line too long: 414, 431).
    func responseRefusedByLibrary(status: Int) {
        guard Self.refusalStatuses.contains(status) else { return }
        refused(status: status, code: "library")
    }

    /// A refusal made without a response of ours (libmicrohttpd's own: `code` "library").
    func refused(status: Int, code: String) {
        let key = RefusalKey(status: status, code: code)
        let counter = refusalCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: Self.refusals.name, dimensions: [("http_response_status_code", "\(status)"), ("error_type", code)],
                                  factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    private static let errorKey = Array(#""error":""#.utf8)

    /// The `error` member of a JSON error body (`{"error":"memory_full",…}`), when it is a
    /// short code of letters, digits and `_` (a label value from a bounded set).
    static func errorCode(in body: [UInt8]) -> String? {
        let key = errorKey
        guard body.count > key.count, let start = body.firstRange(of: key)?.upperBound else { return nil }
        var end = start
        while end < body.count, end - start <= 64, body[end] != 34 {
            let byte = body[end]
            guard (97...122).contains(byte) || (48...57).contains(byte) || byte == 95 else { return nil }
            end += 1
        }
        guard end < body.count, body[end] == 34, end > start else { return nil }
        return String(decoding: body[start..<end], as: UTF8.self)
    }

    func streamOpened(gzip: Bool) { (gzip ? streams.gzip : streams.plain).increment() }
    func streamClosed(gzip: Bool) { (gzip ? streams.gzip : streams.plain).decrement() }

    /// The counters of events named `name` (`nil`: heartbeat comments).
    func events(named name: String?) -> EventCounters {
        let name = name ?? "heartbeat"
        return eventCounters.withLock { counters in
            if let found = counters[name] { return found }
            let made = EventCounters(name, factory: factory)
            counters[name] = made
            return made
        }
    }
}
