import Synchronization

/// One request's progress through libmicrohttpd's access-handler calls.
final class RequestContext: Sendable {
    let connection: ConnectionHandle
    /// The id `ServerCore.connectionStarted` gave the TCP connection.
    let connectionID: UInt64
    let method: HTTPMethod
    let rawPath: String
    /// Whether the client speaks HTTP/1.1 (or later): its responses of unknown length go out
    /// chunked (see `EventStream.responseBlockBytes`).
    let chunked: Bool
    let started: ContinuousClock.Instant
    let state = Mutex(State())
    let bodies: RequestBodyBudget?
    /// The client's `X-Request-ID` when usable, else one made for it (``RequestID``).
    let requestID: String

    enum Phase {
        /// Headers in; the body (if any) arriving.
        case receiving
        /// A chunked body passed the limit; the rest is dropped (up to the limit again) so the
        /// client can be told 413. libmicrohttpd 0.9.75 refuses to queue a response mid-body.
        case discarding(dropped: Int)
        /// The handler's task started on libmicrohttpd's thread, inside the access handler's
        /// call, and runs there until it first suspends (`ServerCore.dispatch`): the connection
        /// is not suspended, and a response delivered meanwhile is queued by that same call.
        case startingInline
        /// The connection is suspended while the handler runs.
        case handling
        /// The handler answered; the connection was resumed to queue this.
        case ready(Response)
        /// A response is queued.
        case answered
        /// libmicrohttpd completed the request; the connection must not be touched.
        case finished
    }

    struct State {
        var phase = Phase.receiving
        var body: [UInt8] = []
        /// What `body` counts against the server's ``RequestBodyBudget``.
        var bodyCharged = 0
        /// The body was refused because all bodies being read hold their budget: answered
        /// `503 server_busy` once the rest is dropped.
        var refusedForBudget = false
        /// The event stream this request opened, if any.
        var stream: EventStream?
        /// Counted in `http_server_active_requests`: until its response is queued, or the
        /// request ends without one.
        var active = true
    }

    init(connection: ConnectionHandle, connectionID: UInt64, method: HTTPMethod, rawPath: String, chunked: Bool = true,
         bodies: RequestBodyBudget? = nil, requestID: String = RequestID.make()) {
        self.connection = connection
        self.requestID = requestID
        self.connectionID = connectionID
        self.method = method
        self.rawPath = rawPath
        self.chunked = chunked
        self.started = .now
        self.bodies = bodies
    }

    deinit {
        // A request that ended while its body arrived (the client left, a deadline).
        bodies?.give(state.withLock { $0.bodyCharged })
    }

    /// Takes the body out of the state, given back to the budget (the handler has it now, or
    /// it is dropped). Under the lock.
    func takeBody(_ s: inout State) -> [UInt8] {
        bodies?.give(s.bodyCharged)
        s.bodyCharged = 0
        defer { s.body = [] }
        return s.body
    }

    /// Hands the handler's response over and resumes the connection, exactly once and only
    /// while it is suspended. Returns whether this response was the one delivered.
    ///
    /// A response given while the handler still runs inline (`.startingInline`) is only kept:
    /// the access handler's call that started it queues it when the task first suspends or ends.
    ///
    /// Only the call that moves the phase from `.handling` (under the lock) resumes, and it
    /// resumes once the lock is let go: libmicrohttpd's thread, woken by the resume, takes this
    /// lock first thing to queue the response, and resumed under it, it woke only to block on
    /// it and wake again (two context switches a request, most of a keystroke's lock waits). Nothing
    /// else can end a suspended connection meanwhile: libmicrohttpd completes it only once resumed,
    /// and a stop delivers only to requests still `.handling`.
    @discardableResult
    func deliver(_ response: Response, beforeResuming accepted: () -> Void = {}) -> Bool {
        enum Delivery { case refused, kept, resume }
        let delivery = state.withLock { s -> Delivery in
            let delivery: Delivery
            switch s.phase {
            case .startingInline: delivery = .kept
            case .handling: delivery = .resume
            default: return .refused
            }
            s.phase = .ready(response)
            accepted()
            return delivery
        }
        if delivery == .resume { connection.resume() }
        return delivery != .refused
    }
}
