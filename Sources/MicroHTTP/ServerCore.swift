import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The state libmicrohttpd's callbacks reach through their `void *cls`: the handler, the
/// limits, and the registries `HTTPServer.stop()` sweeps. Everything in it is immutable or
/// behind a `Mutex`/`Atomic`, so it is `Sendable` by construction (the compiler checks it; the
/// raw pointer that carries it through C is the only unchecked step, see `LibMicroHTTPD.swift`).
final class ServerCore: Sendable {
    let handler: HTTPServer.Handler
    let immediateHandler: (@Sendable (Request) -> Response?)?
    /// `HTTPServer.Configuration.runsInline`.
    let runsInline: (@Sendable (Request) -> Bool)?
    let logger: Logger
    let limits: Limits
    /// Connections libmicrohttpd has open (its `MHD_OPTION_NOTIFY_CONNECTION`). Changed with
    /// sequentially consistent ordering, then `countsChanged()` (see `CountWaiters`).
    let openConnections = Atomic<Int>(0)
    /// Tasks waiting for the counts to reach a state (`HTTPServer.waitForCounts(_:)`).
    let countWaiters = CountWaiters()
    /// `limits.maxConnections`, clamped to the descriptors available at start.
    let maxConnections: Atomic<Int>
    let registry = Mutex(Registry())
    let nextStreamID = Atomic<UInt64>(1)
    /// The last message libmicrohttpd logged (it explains a failed start, e.g. a port in use).
    let lastDaemonMessage = Mutex<String?>(nil)
    let watcher: HangupWatcher
    private let draining = Atomic<Bool>(false)
    /// Requests in flight when a graceful stop began that were answered during it.
    let drainFinished = Atomic<Int>(0)
    /// Connections shut down for missing their head or body deadline.
    let deadlineCuts = Atomic<Int>(0)
    /// Unsent event-stream bytes, server-wide.
    let streamBudget: EventStreamBudget
    /// The niceness libmicrohttpd's polling threads take, each when it takes its first
    /// connection (`HTTPServer.Configuration.libraryThreadNiceness`).
    let libraryThreadNiceness: Int32?
    /// Request bodies being read, against `Limits.maxRequestBodyTotalBytes`.
    let bodyBudget: RequestBodyBudget
    /// Requests, refusals, streams and events, through swift-metrics.
    let metrics: HTTPServerMetrics
    /// The requests' spans, when a tracer is set up.
    let tracing = RequestTracing()
    /// Streams off libmicrohttpd whose clients take nothing now (`EventStream+OwnSocket.swift`).
    let stalledStreams = StalledStreams()

    struct Registry {
        /// Set once by `stop()`; afterwards nothing new is suspended or opened.
        var stopping = false
        /// Set once by `shutdown(gracePeriod:)`: new requests get 503, no stream opens, and the
        /// requests already in flight finish.
        var draining = false
        var nextConnectionID: UInt64 = 1
        /// Every open TCP connection, by the id stored in its libmicrohttpd socket context.
        var connections: [UInt64: Connection] = [:]
        var streams: [UInt64: EventStream] = [:]
        /// Requests whose connection is suspended while the Swift handler runs.
        var pending: [ObjectIdentifier: RequestContext] = [:]
        /// Client sockets open per client address, streams off libmicrohttpd included
        /// (`ServerCore+AddressCounts.swift`).
        var socketsByAddress: [[UInt8]: Int] = [:]
    }

    struct Connection {
        /// -1 once the socket was taken from libmicrohttpd (its stream is then under a new id).
        var socket: Int32
        var phase: Phase
        var stream: EventStream?
        /// The watcher saw the client hang up (it reports each socket once).
        var hungUp = false
        /// Shut down for missing its deadline (done once).
        var cut = false
        /// The client's address and port when the connection was accepted: a shutdown first
        /// checks that the descriptor still names this client, so that a number libmicrohttpd
        /// already closed and the kernel gave to a new connection is never shut down by mistake.
        var peer: [UInt8] = []
        /// libmicrohttpd's connection, and the polling thread that runs it (it never moves).
        var handle: ConnectionHandle?
        var thread: pthread_t = 0
        /// Its request head was answered here for libmicrohttpd (`ServerCore+HeadRefusals.swift`).
        var refusedHead = false
        /// Its socket was taken for an event stream, which counts it from then on.
        var handedOff = false

        /// Where the connection is in its current request; the first two have deadlines.
        enum Phase {
            /// Accepted, or the previous response done: the client owes a request head.
            case awaitingHead(since: UInt64)
            /// The head is in; the client owes the body.
            case receivingBody(since: UInt64)
            /// The request is complete: its handler runs or its response (or stream) is being
            /// sent. No deadline: that time is ours.
            case responding
        }

        /// The current request is complete (its handler runs or its response is being sent).
        var requestComplete: Bool {
            if case .responding = phase { true } else { false }
        }
    }

    init(handler: @escaping HTTPServer.Handler, immediateHandler: (@Sendable (Request) -> Response?)?,
         runsInline: (@Sendable (Request) -> Bool)? = nil, logger: Logger, limits: Limits, watcher: HangupWatcher, libraryThreadNiceness: Int32? = nil,
         routeTemplate: @escaping @Sendable (HTTPMethod, String) -> String = { _, _ in "unknown" }) {
        self.libraryThreadNiceness = libraryThreadNiceness
        self.metrics = HTTPServerMetrics(routeTemplate: routeTemplate)
        self.handler = handler
        self.immediateHandler = immediateHandler
        self.runsInline = runsInline
        self.logger = logger
        self.limits = limits
        self.maxConnections = Atomic(limits.maxConnections)
        self.watcher = watcher
        self.streamBudget = EventStreamBudget(limit: limits.maxEventStreamBufferTotalBytes)
        self.bodyBudget = RequestBodyBudget(limit: limits.maxRequestBodyTotalBytes)
        streamBudget.setStreams { [weak self] in self?.registry.withLock { Array($0.streams.values) } ?? [] }
    }

    // MARK: - Requests waiting for the handler

    /// Runs the handler in a task; its response is delivered by resuming the connection. With
    /// `inline`, the task runs on the calling thread (``InlineTaskExecutor``) until it waits for
    /// another thread, and a response given by then is queued by the access handler's call that
    /// dispatched it. A promised response (``ResponsePromise``) is delivered by whoever fulfils
    /// it, on their thread.
    func dispatch(_ request: Request, context: RequestContext, inline: Bool = false) {
        let accepted = registry.withLock { r -> Bool in
            guard !r.stopping else { return false }
            r.pending[ObjectIdentifier(context)] = context
            return true
        }
        guard accepted else {
            context.deliver(Self.serverStopping.response)
            return
        }
        // Inline: on the calling thread (libmicrohttpd's, in the access handler) until the
        // handler waits for another thread; the rest runs on Dispatch's.
        let executor = inline ? InlineTaskExecutor() : nil
        Task(executorPreference: executor) { [handler, logger, tracing, metrics] in
            var response: Response
            do {
                response = try await RequestID.$current.withValue(context.requestID) {
                    try await tracing.traced(request, route: metrics.route(request.method, request.rawPath), requestID: context.requestID) {
                        try await handler(request)
                    }
                }
            } catch let error as HTTPError {
                response = error.response
            } catch {
                logger.warning("handler failed", metadata: [
                    "method": "\(request.method)", "path": "\(request.path)", "error": "\(error)",
                ])
                response = HTTPError(.internalServerError, code: "internal_error", message: "The request failed").response
            }
            self.answer(request, context: context, with: response)
        }
        executor?.drain()
    }

    /// Delivers the handler's `response`, or the promised one once it is given (the request
    /// stays pending, so a stop waits for it, until then).
    private func answer(_ request: Request, context: RequestContext, with response: Response) {
        if case .promised(let promise) = response.body {
            promise.whenFulfilled { [weak self] in self?.answer(request, context: context, with: $0) }
            return
        }
        var response = response
        let draining = registry.withLock { r in
            _ = r.pending.removeValue(forKey: ObjectIdentifier(context))
            return r.draining
        }
        response.negotiateEventStreamCompression(for: request, limits.eventStreamCompression)
        if draining {
            // The client should not reuse a connection to a server that is going away.
            response.headers["Connection"] = "close"
            // Counted before the connection resumes: once it does, libmicrohttpd may send
            // the response and complete the request before `deliver` returns, and the stop
            // may already be reading the count.
            context.deliver(response) { self.drainFinished.add(1, ordering: .relaxed) }
        } else {
            context.deliver(response)
        }
    }

    static let serverStopping = HTTPError(.serviceUnavailable, code: "server_stopping", message: "The server is stopping", headers: ["Connection": "close"])
    static let bodiesBusy = HTTPError(.serviceUnavailable, code: "server_busy",
                                      message: "The server holds as many request bodies as it may read at once; retry shortly",
                                      headers: ["Connection": "close", "Retry-After": "1"])
    static let overloaded = HTTPError(.serviceUnavailable, code: "overloaded", message: "Too many connections; retry shortly", headers: ["Connection": "close", "Retry-After": "1"])

    // MARK: - Connections and hang-ups

    /// libmicrohttpd accepted a connection: give it an id and watch its socket for a hang-up.
    /// Called on the polling thread that will run the connection.
    func connectionStarted(socket: Int32, handle: ConnectionHandle? = nil) -> UInt64 {
        let now = monotonicNanoseconds()
        let thread = pthread_self()
        let perAddress = limits.maxConnectionsPerAddress
        let id = registry.withLock { r in
            let id = r.nextConnectionID
            r.nextConnectionID += 1
            let peer = socketPeer(socket)
            r.connections[id] = Connection(socket: socket, phase: .awaitingHead(since: now), peer: peer,
                                           handle: handle, thread: thread)
            // libmicrohttpd's own per-address limit no longer sees streams it gave away.
            if r.countSocket(peer: peer, by: 1) > perAddress && perAddress > 0 {
                r.connections[id]?.cut = true
                shutdownConnectionSocket(socket, peer: nil)
            }
            return id
        }
        if socket >= 0 { watcher.watch(socket: socket, token: id) }
        return id
    }

    /// libmicrohttpd is about to close the connection's socket (it notifies before closing).
    /// Returns whether the connection still counted in `openConnections` (not when its socket
    /// was taken for a stream: the stream's socket counts then).
    func connectionClosed(id: UInt64) -> Bool {
        let connection = registry.withLock { r in
            let connection = r.connections.removeValue(forKey: id)
            if let connection, connection.socket >= 0 { _ = r.countSocket(peer: connection.peer, by: -1) }
            return connection
        }
        if let socket = connection?.socket, socket >= 0, !watcher.unwatch(socket: socket) {
            logger.warning("hang-up watcher lost a socket before its close", metadata: ["socket": "\(socket)"])
        }
        return connection?.handedOff != true
    }

    /// The request head is in: from now on the body deadline applies.
    func headReceived(connectionID: UInt64) {
        let now = monotonicNanoseconds()
        registry.withLock { r in
            guard case .awaitingHead = r.connections[connectionID]?.phase else { return }
            r.connections[connectionID]?.phase = .receivingBody(since: now)
        }
    }

    /// Marks the connection's current request complete (handler running, or a response queued)
    /// or done. When it is done the head deadline starts again (keep-alive), and when the client
    /// had already hung up meanwhile, the socket is shut down so that libmicrohttpd does not
    /// wait for a next request that cannot come.
    func setRequestComplete(_ complete: Bool, connectionID: UInt64) {
        let now = monotonicNanoseconds()
        registry.withLock { r in
            guard var connection = r.connections[connectionID] else { return }
            connection.phase = complete ? .responding : .awaitingHead(since: now)
            if !complete {
                connection.stream = nil
                // On libmicrohttpd's thread, before it closes the socket: the descriptor is valid.
                if connection.hungUp { shutdownConnectionSocket(connection.socket, peer: connection.peer) }
            }
            r.connections[connectionID] = connection
        }
    }

    /// The watcher saw a client hang up (or half-close). An event stream is ended at once. A
    /// connection still waiting for (the rest of) a request is shut down: libmicrohttpd 0.9.75
    /// misses a FIN that arrives together with a partial request and would hold the slot until
    /// the idle timeout; the shutdown raises `EPOLLHUP`, which it does act on. A connection
    /// whose request is complete is left to finish; `setRequestComplete(false)` shuts it down.
    func clientHungUp(connectionID: UInt64) {
        let stream = registry.withLock { r -> EventStream? in
            guard var connection = r.connections[connectionID] else { return nil }
            // Edge-triggered: a shutdown raises more events for the same socket; act once.
            guard !connection.hungUp else { return nil }
            connection.hungUp = true
            r.connections[connectionID] = connection
            if let stream = connection.stream { return stream }
            if !connection.requestComplete {
                // Under the lock: the entry is removed before libmicrohttpd closes the socket,
                // so the descriptor is still this connection's.
                shutdownConnectionSocket(connection.socket, peer: connection.peer)
            }
            return nil
        }
        stream?.abort(.clientDisconnected)
    }

    // MARK: - Deadlines

    /// Shuts down every connection whose head or body is overdue (called by the watcher's
    /// thread a few times per deadline). Returns how many were cut.
    /// - Complexity: O(open connections), under the registry lock.
    @discardableResult
    func cutOverdueConnections(now: UInt64 = monotonicNanoseconds()) -> Int {
        let head = limits.requestHeadDeadlineNanoseconds
        let body = limits.requestBodyDeadlineNanoseconds
        let stall = limits.streamStallNanoseconds
        guard head > 0 || body > 0 || stall > 0 else { return 0 }
        let stalled = stall > 0 ? stalledStreams.overdue(now: now, limit: stall) : []
        let cut = registry.withLock { r -> Int in
            var overdue: [UInt64] = []
            for (id, connection) in r.connections where !connection.cut {
                switch connection.phase {
                // `now` was read before the lock: a connection that started (or finished a
                // request) since then has a later clock, and is not overdue (a wrapping
                // difference cut fresh connections unanswered, one in ~30 eviction races).
                case .awaitingHead(let since) where head > 0 && now > since && now - since > head: overdue.append(id)
                case .receivingBody(let since) where body > 0 && now > since && now - since > body: overdue.append(id)
                default: break
                }
            }
            for id in overdue {
                r.connections[id]?.cut = true
                // Under the lock: libmicrohttpd notifies (and we drop the entry) before it closes
                // the socket, so the descriptor is still this connection's.
                if let connection = r.connections[id] { shutdownConnectionSocket(connection.socket, peer: connection.peer) }
            }
            return overdue.count
        }
        // Outside the lock: ending a stream takes it.
        for stream in stalled { stream.abort(.clientDisconnected) }
        if cut > 0 {
            deadlineCuts.add(cut, ordering: .relaxed)
            logger.debug("closed \(cut) connections that were too slow to send their request")
        }
        return cut
    }

    // MARK: - Event streams

    /// Registers a new stream, or `nil` when the server is stopping.
    /// With `gzip`, the stream is compressed as `limits.eventStreamCompression` says.
    func openStream(connection: ConnectionHandle, connectionID: UInt64, socket: Int32, gzip: Bool = false, chunked: Bool = true) -> EventStream? {
        let stream = EventStream(
            id: nextStreamID.wrappingAdd(1, ordering: .relaxed).oldValue,
            connection: connection, socket: socket, bufferLimit: limits.maxEventStreamBufferBytes, budget: streamBudget,
            compression: gzip ? limits.eventStreamCompression : nil, chunked: chunked, metrics: metrics)
        let (accepted, hungUp) = registry.withLock { r -> (Bool, Bool) in
            guard !r.stopping && !r.draining else { return (false, false) }
            r.streams[stream.id] = stream
            r.connections[connectionID]?.stream = stream
            return (true, r.connections[connectionID]?.hungUp ?? false)
        }
        if accepted {
            metrics.streamOpened(gzip: stream.isCompressed)
            countsChanged()
        }
        // The client left between sending the request and now: the watcher has reported it
        // already and will not again.
        if hungUp { stream.abort(.clientDisconnected) }
        return accepted ? stream : nil
    }

    func streamEnded(_ stream: EventStream, defaultReason: EventStream.CloseReason) {
        if registry.withLock({ $0.streams.removeValue(forKey: stream.id) }) != nil {
            metrics.streamClosed(gzip: stream.isCompressed)
        }
        stream.finish(default: defaultReason)
        // After the close handlers: whoever waits for the count sees what they did.
        countsChanged()
    }

    var openStreamCount: Int { registry.withLock { $0.streams.count } }

    // MARK: - Stop

    /// `Registry.draining`, readable without the lock on every request.
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Begins a graceful stop: refuses new requests and streams, and ends every open stream
    /// after what it has queued (the chunked terminator follows, a clean end for the client).
    /// Returns the streams and the in-flight requests at this moment.
    func beginDrain() -> (streams: Int, requests: Int) {
        let (streams, requests) = registry.withLock { r in
            r.draining = true
            draining.store(true, ordering: .relaxed)
            return (Array(r.streams.values), r.pending.count)
        }
        for stream in streams { stream.close(reason: .serverStopped) }
        return (streams.count, requests)
    }

    /// Whether anything is still in flight: a handler running, or a response or stream being
    /// sent. - Complexity: O(open connections).
    var hasWorkInFlight: Bool {
        registry.withLock { r in !r.pending.isEmpty || !r.streams.isEmpty || r.connections.values.contains { $0.requestComplete } }
    }

    /// Handlers still running (answered 503 by `beginStop`).
    var pendingCount: Int { registry.withLock { $0.pending.count } }

    /// Refuses new work, ends every stream and answers every waiting request, so that no
    /// connection is left suspended when `MHD_stop_daemon` runs (it aborts the process if one is).
    /// Starts a hard stop: ends every stream and answers every request still in a handler with
    /// `503 server_stopping`. - Returns: the connections those 503s go out on.
    @discardableResult
    func beginStop() -> [UInt64] {
        let (streams, pending) = registry.withLock { r in
            r.stopping = true
            defer { r.pending = [:] }
            return (Array(r.streams.values), Array(r.pending.values))
        }
        for stream in streams { stream.abort(.serverStopped) }
        for context in pending { context.deliver(Self.serverStopping.response) }
        return pending.map(\.connectionID)
    }

    /// Whether any of `connections` is still sending its response (it is done when libmicrohttpd
    /// completed it, or closed the connection).
    func isResponding(_ connections: [UInt64]) -> Bool {
        registry.withLock { r in
            connections.contains { id in
                if case .responding = r.connections[id]?.phase { return true }
                return false
            }
        }
    }
}
