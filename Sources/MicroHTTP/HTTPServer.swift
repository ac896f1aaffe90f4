import CMicroHTTPD
import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd whose handler is an `async` Swift function.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), logger: logger) { request in
///     switch (request.method, request.path) {
///     case (.get, "/hello"): return .text("hello \(request.query["name"] ?? "world")")
///     case (.get, "/events"): return .eventStream { stream in hub.add(stream) }
///     default: return HTTPError(.notFound).response
///     }
/// }
/// try server.start()
/// print(server.port)      // the port picked for port 0
/// await server.stop()
/// ```
///
/// # How it runs
/// One libmicrohttpd thread polls every connection with epoll. When a request is complete its
/// connection is suspended and the handler runs in a `Task`; the response resumes it. A request
/// the configuration's `runsInline` picks (one answered fast) instead starts on that thread and
/// runs there until it waits for another thread: if it never waits (a keystroke's write and its
/// events), it is answered in the same callback, with no thread hop. Event
/// streams suspend whenever they have nothing to send, so an idle stream costs no thread and no
/// CPU (see `EventStream`). Errors thrown by the handler become responses: an `HTTPError` as
/// itself, anything else as a JSON 500 (logged at warning). One debug log line per request.
///
/// # Stopping
/// `stop()` refuses new requests, ends every event stream (`.serverStopped`), answers requests
/// whose handler is still running with 503, closes every connection and joins every thread the
/// server started. A handler task that finishes later is ignored. `shutdown(gracePeriod:)`
/// stops gracefully instead: streams end cleanly and in-flight requests get time to finish;
/// `beginShutdown(gracePeriod:)` starts that from any thread (a signal handler) and returns at
/// once, and its deadline holds however busy the cooperative pool is. Do not call `stop()` from an
/// `EventStream` close handler or `open` closure (they run on the server's own thread).
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (Request) async throws -> Response

    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal, `localhost`, or `0.0.0.0`/`::` for every address.
        public var host: String
        /// `0` picks a free port; read `HTTPServer.port` after `start()`.
        public var port: Int
        public var limits: Limits
        /// libmicrohttpd polling threads, each with its own epoll set and share of the
        /// connections (handlers run in Swift tasks, not on these threads, except those
        /// `runsInline` picks). The default is one
        /// per core, up to 4: on 2 cores, 2 threads served static files about 1.8× faster than 1.
        public var threads: Int
        /// An optional handler answered synchronously on libmicrohttpd's thread, before the
        /// async handler: no task, no suspend/resume. For quick, non-blocking answers such as
        /// static files from the page cache; return `nil` to fall through to the async handler.
        public var immediateHandler: (@Sendable (Request) -> Response?)?
        /// Which requests' handlers start on libmicrohttpd's thread and run there until they
        /// first wait (`InlineTaskExecutor`): no task hop and no suspend/resume, for requests that
        /// are answered fast (a keystroke's write: 3,000 keystrokes took 11.1k context switches
        /// instead of 19.2k). Everything else runs in a task on the cooperative pool, so a slow
        /// handler (a stream's first snapshot, a large body) never holds a polling thread and
        /// what the `immediateHandler` answers waits for no handler. `nil`: none.
        public var runsInline: (@Sendable (Request) -> Bool)?
        /// The niceness libmicrohttpd's polling threads take when the process may set it
        /// (`CAP_SYS_NICE`): below 0, they are scheduled before the threads handlers run on,
        /// so a request the `immediateHandler` answers (a health check) waits for no handler.
        /// Each thread takes it when it takes its first connection (a thread sets its own
        /// niceness: Linux schedules threads). Measured on 2 cores with 5,000 streams opened
        /// at once (`scripts/memory-test.py`, case C): `/healthz` p99 13–39 ms, worst 50–80 ms,
        /// at the same priority; 16–22 ms, worst 23–74 ms, at −3 (−10: 9–25 ms, and 10% more
        /// CPU per request under load, from preempting the handlers). Without the privilege nothing
        /// changes (and nothing fails). `nil`: left as they are.
        public var libraryThreadNiceness: Int32?
        /// A request's route template (`/api/sessions/{id}`) from its method and raw path: the
        /// `http_route` label of its duration, and of its log line. It must return one of a
        /// bounded set of strings (never an id from the path). `nil`: `unknown` for every request.
        public var routeTemplate: (@Sendable (HTTPMethod, String) -> String)?

        public static var defaultThreads: Int {
            min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        }

        public init(host: String = "127.0.0.1", port: Int = 8080, limits: Limits = Limits(), threads: Int = Configuration.defaultThreads) {
            self.host = host
            self.port = port
            self.limits = limits
            self.threads = threads
        }
    }

    public enum ServerError: Error, CustomStringConvertible {
        case invalidHost(String)
        case couldNotStart(String)
        case alreadyStarted

        public var description: String {
            switch self {
            case .invalidHost(let host): "not an IP address: \(host)"
            case .couldNotStart(let reason): "could not start the HTTP server: \(reason)"
            case .alreadyStarted: "the server was already started (a stopped server cannot restart)"
            }
        }
    }

    public let configuration: Configuration
    private let core: ServerCore

    /// The metric families the server records (docs/metrics.md), with their help texts.
    public static var metricsCatalog: [MetricInfo] { HTTPServerMetrics.catalog }
    private let state = Mutex(Lifecycle.idle)
    private let graceful = Mutex(GracefulStop())

    /// A graceful stop: begun once, reported to everyone who waits for it.
    private struct GracefulStop {
        var started = false
        var report: ShutdownReport?
        var waiters: [CheckedContinuation<ShutdownReport, Never>] = []
    }

    private enum Lifecycle {
        case idle
        case running(RunningDaemon)
        case stopped
    }

    /// - Throws: `ServerError.couldNotStart` if the hang-up watcher cannot be created (no
    ///   descriptors left).
    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "MicroHTTP"), handler: @escaping Handler) throws {
        self.configuration = configuration
        guard let watcher = HangupWatcher() else {
            throw ServerError.couldNotStart("epoll_create1/eventfd failed (errno \(errno))")
        }
        core = ServerCore(handler: handler, immediateHandler: configuration.immediateHandler, runsInline: configuration.runsInline,
                          logger: logger, limits: configuration.limits,
                          watcher: watcher, libraryThreadNiceness: configuration.libraryThreadNiceness,
                          routeTemplate: configuration.routeTemplate ?? { _, _ in "unknown" })
    }

    deinit {
        stopNow()
    }

    /// Binds and starts serving. Raises the soft descriptor limit if configured to.
    /// - Throws: `ServerError` (invalid host, port in use, already started).
    public func start() throws {
        try state.withLock { state in
            guard case .idle = state else { throw ServerError.alreadyStarted }
            // A client that resets a connection mid-write must not kill the process; libmicrohttpd
            // reports the failed write instead.
            signal(SIGPIPE, SIG_IGN)
            if configuration.limits.raiseFileDescriptorLimit { raiseDescriptorLimit() }
            clampConnectionsToDescriptors()
            // The watcher thread holds the core until `stop()` ends it.
            guard core.watcher.start(
                tickMilliseconds: configuration.limits.deadlineSweepMilliseconds,
                onHangup: { [core] id in core.clientHungUp(connectionID: id) },
                onWritable: { [core] id in core.streamSocketWritable(token: id) },
                onTick: { [core] in core.cutOverdueConnections() }
            ) else { throw ServerError.couldNotStart("could not start the hang-up watcher thread") }
            do {
                let daemon = try LibMicroHTTPD.start(
                    core: core, host: configuration.host, port: configuration.port, threads: configuration.threads)
                state = .running(daemon)
                core.logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(daemon.port)"])
            } catch LibMicroHTTPD.StartError.invalidHost(let host) {
                core.watcher.stop()
                throw ServerError.invalidHost(host)
            } catch LibMicroHTTPD.StartError.failed(let reason) {
                core.watcher.stop()
                throw ServerError.couldNotStart(reason)
            }
        }
    }

    /// The port being listened on (the configured one before `start()`).
    public var port: Int {
        state.withLock { state in
            if case .running(let daemon) = state { return daemon.port }
            return configuration.port
        }
    }

    public var isRunning: Bool {
        state.withLock { if case .running = $0 { true } else { false } }
    }

    /// Event streams currently open (for tests and metrics; a test awaits a count with
    /// `waitForCounts(_:)`). - Complexity: O(1).
    public var openEventStreamCount: Int { core.openStreamCount }

    /// Memory all event streams hold for bytes not yet handed to the network: their buffers'
    /// allocation, at least the unsent bytes (for tests and metrics; what
    /// `Limits.maxEventStreamBufferTotalBytes` bounds). - Complexity: O(1).
    public var unsentEventStreamBytes: Int { core.streamBudget.unsentBytes }

    /// The memory all event streams hold (buffers, frames on their way, deflate states) against
    /// `Limits.maxEventStreamBufferTotalBytes`; ``EventStreamBudget/cutSlowest(freeing:)`` cuts the
    /// clients furthest behind (the process's memory governor does, as RSS nears its limit).
    public var eventStreamBudget: EventStreamBudget { core.streamBudget }

    /// Bytes of request bodies being read now (what `Limits.maxRequestBodyTotalBytes` bounds).
    public var requestBodyBytes: Int { core.bodyBudget.usedBytes }

    /// TCP connections currently open (see `waitForCounts(_:)`). - Complexity: O(1).
    public var openConnectionCount: Int { core.openConnections.load(ordering: .relaxed) }

    /// Waits until `predicate` holds for the open connections and event streams: checked now,
    /// then on every change of either (libmicrohttpd's connection notifications, a stream
    /// registered or ended, a stream's own socket closed), never on a clock. For tests: a
    /// change costs one atomic load while nobody waits. Returns `false` only if the task is
    /// cancelled first.
    @discardableResult
    func waitForCounts(_ predicate: @escaping @Sendable (Counts) -> Bool) async -> Bool {
        await core.countWaiters.wait(until: predicate) { core.counts }
    }

    /// Connections libmicrohttpd holds (`MHD_DAEMON_INFO_CURRENT_CONNECTIONS`): event streams
    /// whose socket the server took are not among them (for tests). It drops in libmicrohttpd's
    /// cleanup pass, after the connection's notification: nothing signals it.
    var libraryConnectionCount: Int {
        state.withLock { state in
            if case .running(let daemon) = state { return Int(cmhd_daemon_connection_count(daemon.daemon)) }
            return 0
        }
    }

    /// Stops the server (see "Stopping" above); blocks for as long as libmicrohttpd takes to
    /// close its connections (milliseconds). Idempotent.
    public func stop() {
        stopNow()
    }

    /// Stops the server; see `stop()`.
    public func stop() async {
        stopNow()
    }

    /// What a graceful stop did, as logged.
    public struct ShutdownReport: Sendable, Hashable, CustomStringConvertible {
        /// Event streams open when the stop began.
        public var streamsClosed = 0
        /// Of those, the ones that flushed and ended with the chunked terminator in time (the
        /// rest, clients not reading, were cut at the end of the grace period).
        public var streamsEndedCleanly = 0
        /// Requests in flight when the stop began (handlers running, or waiting to run) that
        /// were answered within the grace period.
        public var requestsFinished = 0
        /// Requests still in flight at the end of the grace period: answered 503, their work
        /// abandoned.
        public var requestsCut = 0
        /// From the stop's start (`beginShutdown`) to the server stopped.
        public var duration: Duration = .zero

        public var description: String {
            "\(streamsClosed) event streams closed (\(streamsEndedCleanly) cleanly), \(requestsFinished) in-flight requests finished, \(requestsCut) cut"
        }
    }

    /// Stops gracefully: new requests get `503 server_stopping` (with `Connection: close`), every
    /// event stream sends what it has queued and ends with the chunked terminator (a clean end
    /// of the body, not a reset; its `CloseReason` is `.serverStopped`), and requests already in
    /// flight get up to `gracePeriod` to finish. Then it stops as `stop()` does (requests still
    /// running get `503`; their handlers' work is abandoned) and logs one line with the counts.
    /// Idempotent; a server that is not running just stops. Returns when the server has stopped.
    @discardableResult
    public func shutdown(gracePeriod: Duration = .seconds(5)) async -> ShutdownReport {
        beginShutdown(gracePeriod: gracePeriod)
        return await withCheckedContinuation { continuation in
            let report = graceful.withLock { g -> ShutdownReport? in
                if let report = g.report { return report }
                g.waiters.append(continuation)
                return nil
            }
            if let report { continuation.resume(returning: report) }
        }
    }

    /// Starts `shutdown(gracePeriod:)` at once and returns: callable from any thread, such as a
    /// signal handler's. From here on new requests get `503`. The grace period is kept by a
    /// thread of its own, not a task: under CPU load (every thread of the cooperative pool
    /// running a long handler) a sleeping task may not run again for seconds, and the stop
    /// must not wait for the load it is ending. Later calls do nothing.
    public func beginShutdown(gracePeriod: Duration = .seconds(5)) {
        let first = graceful.withLock { g -> Bool in
            defer { g.started = true }
            return !g.started
        }
        guard first else { return }
        guard isRunning else {
            stopNow()
            finishShutdown(ShutdownReport())
            return
        }
        let start = ContinuousClock.now
        let (streams, requests) = core.beginDrain()
        Thread.detachNewThread { [self] in
            var report = ShutdownReport()
            report.streamsClosed = streams
            let deadline = start + gracePeriod
            while core.hasWorkInFlight && ContinuousClock.now < deadline {
                usleep(10_000)
            }
            report.streamsEndedCleanly = max(0, streams - core.openStreamCount)
            report.requestsCut = core.pendingCount
            report.requestsFinished = min(requests, core.drainFinished.load(ordering: .relaxed))
            stopNow(quiet: true)
            report.duration = ContinuousClock.now - start
            core.logger.info("stopped gracefully: \(report) in \(report.duration)", metadata: [
                "streamsClosed": "\(report.streamsClosed)", "streamsEndedCleanly": "\(report.streamsEndedCleanly)",
                "requestsFinished": "\(report.requestsFinished)", "requestsCut": "\(report.requestsCut)",
            ])
            finishShutdown(report)
        }
    }

    private func finishShutdown(_ report: ShutdownReport) {
        let waiters = graceful.withLock { g in
            g.report = report
            defer { g.waiters = [] }
            return g.waiters
        }
        for waiter in waiters { waiter.resume(returning: report) }
    }

    private func stopNow(quiet: Bool = false) {
        let running = state.withLock { state -> RunningDaemon? in
            guard case .running(let daemon) = state else {
                state = .stopped
                return nil
            }
            state = .stopped
            return daemon
        }
        guard let running else { return }
        running.stop()
        if !quiet { core.logger.info("stopped", metadata: ["port": "\(running.port)"]) }
    }

    private func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMITResource.noFile, &limit) == 0 else { return }
        let wanted = rlim_t(configuration.limits.maxConnections + configuration.limits.overflowConnections + 256)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(RLIMITResource.noFile, &limit) != 0 {
                core.logger.warning("could not raise the file descriptor limit", metadata: ["errno": "\(errno)"])
            }
        }
    }

    /// Keeps libmicrohttpd's limit below the descriptors we have, so `accept` never fails with
    /// EMFILE (which would leave clients hanging in the backlog).
    private func clampConnectionsToDescriptors() {
        var limit = rlimit()
        guard getrlimit(RLIMITResource.noFile, &limit) == 0 else { return }
        let available = Int(clamping: limit.rlim_cur) - configuration.limits.overflowConnections - 128
        let wanted = configuration.limits.maxConnections
        if available < wanted {
            core.logger.warning("connection limit lowered to fit the file descriptor limit", metadata: [
                "wanted": "\(wanted)", "allowed": "\(max(1, available))", "RLIMIT_NOFILE": "\(limit.rlim_cur)",
            ])
            core.maxConnections.store(max(1, available), ordering: .relaxed)
        }
    }
}

private enum RLIMITResource {
    #if canImport(Glibc)
    static let noFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #endif
}
