import CMicroHTTPD
import Synchronization

/// One open `text/event-stream` response (server-sent events).
///
/// A handler opens one with `Response.eventStream { stream in ... }`; from then on any thread
/// or task may call `send` and `comment`, at any time, until the stream closes:
/// ```swift
/// stream.send(event: "changeset", id: "42", data: #"{"inserted":[]}"#)
/// stream.comment("heartbeat")
/// stream.onClose { reason in registry.remove(stream.id) }
/// ```
///
/// # Cost of an idle stream
/// No thread and no CPU: once it opens, the stream's socket is taken from libmicrohttpd and the
/// server writes it (`EventStream+OwnSocket.swift`; with `eventStreamsOffLibrary` off, it stays a
/// suspended libmicrohttpd connection, resumed by `send`). A hang-up by the client is
/// noticed by the server's watcher (an epoll set of stream sockets waiting for `EPOLLRDHUP`), so
/// `onClose` runs within milliseconds even when no event is being sent.
///
/// # Slow clients
/// Bytes wait in a per-stream buffer while the client is slow. Once the unsent backlog exceeds
/// `Limits.maxEventStreamBufferBytes`, the next send closes the stream with `.bufferOverflow`
/// and drops the buffer; the browser's `EventSource` reconnects and resyncs with
/// `Last-Event-ID`. Memory per stream stays below the cap plus one event.
///
/// An event sent while nothing waits goes straight to the socket from its own bytes, one chunk
/// of the body in one `sendmsg` (on a socket the server writes itself). The unsent bytes live in
/// a ``SendBuffer``: chunks sized to what is sent, freed as the client takes them. All streams together hold at most `Limits.maxEventStreamBufferTotalBytes` of
/// such memory (counted as allocated, not as unsent): when a send passes it, the streams holding
/// the most are closed first (`.bufferBudgetExceeded`) until the total is back under it.
///
/// # Compression
/// A stream the server negotiated gzip for (`isCompressed`; see `EventStreamCompression`) is
/// one gzip member, flushed after every event, compressed against what the stream sent before:
/// the buffer, its cap and the budget count the compressed bytes. A stream idle for a heartbeat
/// interval frees its deflate state (see `EventStreamCompression`).
///
/// - Complexity: `send` is O(size of the event); it never blocks on the network. A send that
///   passes the server-wide budget costs O(open streams · log) once, to find the slowest.
public final class EventStream: Sendable, Hashable, CustomStringConvertible {
    /// Why a stream ended.
    public enum CloseReason: Sendable, Hashable {
        /// The client hung up (or the connection failed).
        case clientDisconnected
        /// `close()` was called and the queued events were flushed.
        case closedByServer
        /// The client did not read fast enough; queued bytes passed the limit.
        case bufferOverflow
        /// The server stopped.
        case serverStopped
        /// The unsent bytes of all streams together passed
        /// `Limits.maxEventStreamBufferTotalBytes`, and this stream had one of the largest
        /// backlogs (the slowest readers are cut first). The client reconnects and resyncs.
        case bufferBudgetExceeded
    }

    /// Unique among the streams of this process.
    public let id: UInt64

    private let connection: ConnectionHandle
    let socket: Int32
    private let bufferLimit: Int
    /// Whether the body is chunked (an HTTP/1.1 client) or ends at the close (HTTP/1.0).
    let chunked: Bool
    /// Whether the bytes on the wire are gzip (`Content-Encoding: gzip`).
    public let isCompressed: Bool
    /// The server-wide count of unsent bytes this stream adds to and takes from.
    let budget: EventStreamBudget?
    /// The server's metrics (events and bytes sent, by event name).
    let metrics: HTTPServerMetrics?
    let state: Mutex<State>

    enum Phase {
        case open
        /// `close()`: flush what is queued, then end the response.
        case draining(CloseReason)
        /// End now, dropping what is queued.
        case aborting(CloseReason)
        /// libmicrohttpd has completed the request; nothing may touch the connection.
        case finished(CloseReason)
    }

    struct State {
        var pending = SendBuffer()
        /// What this stream has added to the budget's unsent bytes: its buffer's allocation
        /// (`heldBytes`) and the frame on its way to the socket.
        var charged = 0
        /// What this stream has added to the budget's deflate states (`GzipEncoder.stateBytes`).
        var chargedState = 0
        var phase = Phase.open
        /// The reader suspended the connection and nobody has resumed it yet.
        var suspended = false
        /// A draining stream's reader has returned end-of-stream: the response is complete on
        /// the wire, so a hang-up the client makes after reading it is not a disconnect.
        var ended = false
        var closeHandlers: [@Sendable (CloseReason) -> Void] = []
        var closeWaiters: [CheckedContinuation<CloseReason, Never>] = []
        /// The deflate state of a compressed stream; dropped when the stream ends.
        var encoder: GzipEncoder?
        var directHeartbeats = 0
        /// Set once the stream's socket is taken from libmicrohttpd: the server writes it
        /// itself from then on (`EventStream+OwnSocket.swift`).
        var own: OwnSocket?
        /// The first bytes of `pending` that are the rest of a chunk already framed and partly
        /// sent (``sendDirect(_:_:size:)``): they go out as they are.
        var unframed = 0
    }

    /// With `compression`, the stream is gzip (unless zlib cannot set it up: see `isCompressed`).
    init(id: UInt64, connection: ConnectionHandle, socket: Int32, bufferLimit: Int, budget: EventStreamBudget? = nil,
         compression: EventStreamCompression? = nil, chunked: Bool = true, metrics: HTTPServerMetrics? = nil) {
        self.id = id
        self.metrics = metrics
        self.chunked = chunked
        self.connection = connection
        self.socket = socket
        self.bufferLimit = bufferLimit
        self.budget = budget
        // Without a first chunk the client sees no status line until the first event.
        var preamble = Array(": connected\n\n".utf8)
        var encoder = compression.flatMap(GzipEncoder.init)
        if let gzip = encoder {
            var compressed: [UInt8] = []
            if gzip.compress(preamble, appendingTo: &compressed) { preamble = compressed } else { encoder = nil }
        }
        isCompressed = encoder != nil
        var pending = SendBuffer()
        pending.append(preamble)
        budget?.add(pending.heldBytes)
        let stateBytes = encoder?.stateBytes ?? 0
        budget?.addState(stateBytes)
        self.state = Mutex(State(pending: pending, charged: pending.heldBytes, chargedState: stateBytes, encoder: encoder))
    }

    // MARK: - Public API

    /// Whether events can still be sent (`false` from `close()` on, or once the client is gone).
    public var isOpen: Bool {
        state.withLock { if case .open = $0.phase { true } else { false } }
    }

    /// Queues one event. `data` may span lines (`\n`, `\r\n` or `\r`): each becomes its own
    /// `data:` line, as the SSE spec frames it. Line breaks in `event` and `id` (and NUL in `id`)
    /// are removed. Returns `false` when the stream is no longer open (the event is dropped).
    /// - Complexity: O(`data.utf8.count`).
    @discardableResult
    public func send(event: String? = nil, id: String? = nil, data: String) -> Bool {
        enqueue(EventStream.frame(event: event, id: id, data: data), event: event)
    }

    /// Queues a comment (`: text`).
    @discardableResult
    public func comment(_ text: String = "") -> Bool {
        enqueue(EventStream.frameComment(text), event: nil)
    }

    /// Asks the client to wait `milliseconds` before reconnecting after a drop.
    @discardableResult
    public func send(retry milliseconds: Int) -> Bool {
        enqueue(Array("retry: \(max(0, milliseconds))\n\n".utf8))
    }

    /// Ends the stream after the queued events are sent. Idempotent.
    public func close() {
        close(reason: .closedByServer)
    }

    /// Ends the stream after the queued events are sent, reporting `reason` (a graceful server
    /// stop uses `.serverStopped`): the client sees the chunked body end cleanly.
    func close(reason: CloseReason) {
        state.withLock { s in
            guard case .open = s.phase else { return }
            s.phase = .draining(reason)
            if let encoder = s.encoder {
                // The gzip trailer, so that the client sees the body end cleanly.
                var trailer: [UInt8] = []
                _ = encoder.compress([], appendingTo: &trailer, finish: true)
                s.pending.append(trailer)
                s.encoder = nil
                recharge(&s)
            }
            resumeIfSuspended(&s)
        }
        reportOwnSocketEnd()
    }

    /// Calls `handler` once when the stream has ended (on the server's I/O thread: keep it
    /// short), or right away if it already has. This is where the owner forgets the stream.
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let finished: CloseReason? = state.withLock { s in
            if case .finished(let reason) = s.phase { return reason }
            s.closeHandlers.append(handler)
            return nil
        }
        if let finished { handler(finished) }
    }

    /// Waits until the stream has ended and returns why.
    public func closed() async -> CloseReason {
        await withCheckedContinuation { continuation in
            let finished: CloseReason? = state.withLock { s in
                if case .finished(let reason) = s.phase { return reason }
                s.closeWaiters.append(continuation)
                return nil
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }

    public static func == (lhs: EventStream, rhs: EventStream) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "EventStream(\(id))" }

    // MARK: - Used by the server

    /// The content reader, on libmicrohttpd's thread: copies queued bytes into `buffer`, or
    /// suspends the connection when there are none (returning 0 without suspending would make
    /// libmicrohttpd call again at once: a busy loop).
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { s in
            switch s.phase {
            case .aborting(let reason) where reason != .serverStopped && socket >= 0:
                // The socket is shut down (see `abort`), so this is not a clean end for the
                // client: libmicrohttpd's write of the last chunk fails and it closes and frees
                // the connection in the same pass. An error here would close it too, but 0.9.75
                // then leaves the closed connection to its timeout sweep, which frees closed
                // connections only from the oldest end of its list: behind one idle keep-alive
                // connection, hung-up streams held their slots until that one timed out.
                return CMHD_CONTENT_READER_END_OF_STREAM
            case .aborting, .finished:
                // A server stop: `MHD_stop_daemon` closes every connection right after.
                return CMHD_CONTENT_READER_END_WITH_ERROR
            case .open, .draining:
                break
            }
            if !s.pending.isEmpty {
                // Chunks read whole are freed at once (an idle stream keeps no buffer).
                let n = s.pending.read(into: UnsafeMutableRawPointer(buffer), capacity: capacity)
                recharge(&s)
                return n
            }
            if case .draining = s.phase {
                s.ended = true
                return CMHD_CONTENT_READER_END_OF_STREAM
            }
            s.suspended = true
            connection.suspend()
            return 0
        }
    }

    /// Ends the stream now (client gone, server stopping). Safe from any thread.
    func abort(_ reason: CloseReason) {
        state.withLock { s in
            switch s.phase {
            case .draining where s.ended:
                // The client read the whole response and left before libmicrohttpd reported
                // the request complete: the stream still ended as the server asked.
                break
            case .open, .draining:
                s.phase = .aborting(reason)
                // Nothing more is compressed: the deflate state goes now, not when
                // libmicrohttpd gets round to completing the request.
                s.encoder = nil
                dropPending(&s)
                if reason != .serverStopped { shutdownSocket(s) }
                resumeIfSuspended(&s)
            case .aborting, .finished:
                break
            }
        }
        reportOwnSocketEnd()
    }

    /// libmicrohttpd completed the request (the connection is about to be closed or reused):
    /// run the close handlers once.
    func finish(default defaultReason: CloseReason) {
        let (reason, handlers, waiters) = state.withLock { s -> (CloseReason, [@Sendable (CloseReason) -> Void], [CheckedContinuation<CloseReason, Never>]) in
            let reason: CloseReason
            switch s.phase {
            case .open: reason = defaultReason
            case .draining(let r), .aborting(let r): reason = r
            case .finished(let r): return (r, [], [])
            }
            s.phase = .finished(reason)
            s.encoder = nil
            s.suspended = false
            closeOwnSocket(&s)
            dropPending(&s)
            defer { s.closeHandlers = []; s.closeWaiters = [] }
            return (reason, s.closeHandlers, s.closeWaiters)
        }
        for handler in handlers { handler(reason) }
        for waiter in waiters { waiter.resume(returning: reason) }
    }

    // MARK: - Internals

    /// Queues bytes; with `onlyIfIdle`, only when nothing earlier is still unsent.
    private func enqueue(_ bytes: [UInt8], event: String? = "retry", onlyIfIdle: Bool = false) -> Bool {
        enqueue(size: bytes.count, event: event, onlyIfIdle: onlyIfIdle, plain: [bytes]) { pending, encoder in
            encoder.compress(bytes, appendingTo: &pending)
        }
    }

    /// Queues an event: a plain stream's bytes are the `plain` parts, in order (`size` in all);
    /// `compress` writes a gzip stream's through its encoder (returning `false` when zlib
    /// failed). On a socket the server writes itself, with nothing queued before, the bytes go
    /// straight from where they are (``sendDirect(_:_:size:)``): only what the kernel does not
    /// take is copied. Counted in the server's metrics under `event` (`nil`: a heartbeat comment).
    func enqueue(size: Int, event: String?, onlyIfIdle: Bool = false, plain: [[UInt8]],
                 _ compress: (inout [UInt8], GzipEncoder) -> Bool) -> Bool {
        var wire = 0
        let queued = state.withLock { s -> Bool in
            guard case .open = s.phase else { return false }
            if onlyIfIdle && !s.pending.isEmpty { return true }
            // The cap bounds the backlog of a client that stopped reading: a send is refused
            // once what is still unsent exceeds it. An event larger than the cap is accepted
            // whole while the backlog is within it — a big snapshot must reach a healthy client
            // even right after the stream's preamble — so memory stays below cap + one event.
            if s.pending.count > bufferLimit {
                s.phase = .aborting(.bufferOverflow)
                s.encoder = nil
                dropPending(&s)
                // A client that stopped reading leaves libmicrohttpd waiting for the socket to
                // become writable, which may never happen: shutting the socket down makes the
                // next write fail, so the connection is closed and its slot freed.
                shutdownSocket(s)
                resumeIfSuspended(&s)
                return false
            }
            let written: Bool
            if let encoder = s.encoder {
                // Compressed aside, then queued: the buffer's chunks are never reallocated.
                var compressed: [UInt8] = []
                compressed.reserveCapacity(size / 2 + 64)
                written = compress(&compressed, encoder) && (sendDirect(&s, [compressed], size: compressed.count) ?? s.pending.append(compressed))
                wire = compressed.count
            } else {
                written = sendDirect(&s, plain, size: size) ?? plain.allSatisfy { s.pending.append($0) }
                wire = size
            }
            // No memory (zlib's or the buffer's): the stream cannot go on; the client reconnects.
            guard written else { return fail(&s) }
            recharge(&s)
            resumeIfSuspended(&s)
            return true
        }
        reportOwnSocketEnd()
        if wire > 0, let metrics {
            let counters = metrics.events(named: event)
            counters.events.increment()
            counters.bytes.increment(by: wire)
        }
        // Outside the lock: enforcing takes other streams' locks.
        if queued, let budget, budget.isExceeded { budget.enforce() }
        return queued
    }

    /// Ends a stream that could not queue an event (no memory) or write a heartbeat. Under the
    /// lock; returns `false`.
    func fail(_ s: inout State, _ reason: CloseReason = .bufferOverflow) -> Bool {
        s.phase = .aborting(reason)
        s.encoder = nil
        dropPending(&s)
        shutdownSocket(s)
        resumeIfSuspended(&s)
        return false
    }

    /// Resumes while holding the stream's lock. Holding it is what makes this safe: a suspended
    /// connection cannot be completed, and `read` (which suspends) and `HTTPServer.stop` (which
    /// must resume every suspended stream before `MHD_stop_daemon`) take the same lock, so the
    /// flag and libmicrohttpd's state never disagree. Lock order is always stream lock →
    /// libmicrohttpd's internal mutex; libmicrohttpd never calls us holding that mutex.
    /// A stream whose socket is ours writes what it can instead (see `writeOwnSocket`).
    private func resumeIfSuspended(_ s: inout State) {
        if s.own != nil {
            writeOwnSocket(&s)
        } else if s.suspended {
            s.suspended = false
            connection.resume()
        }
    }

    /// Only called while the phase is not `.finished`, under the lock: libmicrohttpd closes a
    /// socket only after the completion callback (`finish`, which takes this lock) has run, so
    /// the descriptor still belongs to this stream's connection. A socket of our own is not
    /// shut down but closed, by `writeOwnSocket` once the phase says the stream ends.
    private func shutdownSocket(_ s: borrowing State) {
        guard s.own == nil else { return }
        // libmicrohttpd closes it next: a reset, so that what the client never took is dropped.
        resetOnClose(socket)
        shutdownConnectionSocket(socket, peer: nil)
    }
}
