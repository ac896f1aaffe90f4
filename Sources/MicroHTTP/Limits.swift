/// What one client may take from the server. Every limit has a default fit for a public site.
///
/// ```swift
/// var limits = Limits()
/// limits.maxBodyBytes = 64 * 1024
/// let server = try HTTPServer(configuration: .init(port: 8080, limits: limits)) { ... }
/// ```
///
/// # Refusals and their shape
/// The server's own refusals are JSON (`{"error": code, "message": …}`, see `HTTPError`):
/// `413 payload_too_large`, `414 too_many_query_arguments`, `503 overloaded`, `503 server_stopping`, and, for request framing
/// that two parsers could read differently (request smuggling), `400 conflicting_content_length`
/// (two different `Content-Length` values), `400 ambiguous_framing` (`Content-Length` together
/// with `Transfer-Encoding`) and `501 unsupported_transfer_encoding` (anything but `chunked`).
/// libmicrohttpd 0.9.75 itself would take the first `Content-Length`, let chunked win, and wait
/// for the close on an unknown coding.
///
/// A few refusals come from libmicrohttpd before any of our code runs, and stay its short
/// HTML: `400` (a malformed request line or header line), `414` (request line larger than the
/// connection's memory pool), `431` (header block larger than the pool: see `maxHeaderBytes`)
/// and `505` (an HTTP version other than 1.0/1.1). It builds these in `connection.c` from
/// compiled-in strings and queues them itself while reading the head; 0.9.75 has no option to
/// replace those bodies. Each such answer also carries `Connection: close`. The refusals it
/// makes once the head is complete, which 0.9.75 sent with its header block twice, are ours in
/// JSON: `400 invalid_content_length` (not a number), `413 payload_too_large` (past 2⁶⁴) and
/// `431 header_fields_too_large` (cookies past the pool); see `ServerCore+HeadRefusals.swift`.
public struct Limits: Sendable, Hashable {
    /// Connections served at once (ordinary requests and event streams together). Past it a
    /// client gets a quick `503` (JSON) and the connection is closed; a little further
    /// (`overflowConnections`) libmicrohttpd stops accepting and new clients wait in the
    /// listen backlog. Clamped to what the file descriptor limit allows (see
    /// `raiseFileDescriptorLimit`).
    public var maxConnections: Int
    /// Extra connections accepted only to be answered `503`.
    public var overflowConnections: Int
    /// Idle time (no byte received or sent) after which an ordinary connection is closed: a
    /// client that stalls. It restarts with every byte, so a client that trickles a byte now and
    /// then is bounded by `requestHeadDeadline` and `requestBodyDeadline` instead. An event stream
    /// is timed out only while it is sending to a client that accepts nothing (libmicrohttpd
    /// does not time out a suspended, idle stream, and restarts the clock when it resumes);
    /// hang-ups of idle streams are detected from the socket. It is also the backstop for a
    /// connection the server cut (deadline, buffer cap, budget) if libmicrohttpd missed the
    /// shutdown. Whole seconds (rounded up, at least 1).
    public var requestTimeout: Duration
    /// The whole request head (request line and headers) must arrive within this time of the
    /// connection being ready for it: accepted, or its previous response sent (so an idle
    /// keep-alive connection is also closed after it). Past it the connection is closed without
    /// an answer (slowloris: trickling a header byte every few seconds held a slot forever).
    /// Checked a few times per deadline by the watcher thread, so it may be exceeded by up to a
    /// quarter of itself (at most 1 s). `.zero` turns it off.
    public var requestHeadDeadline: Duration
    /// The whole request body must arrive within this time of the head. `.zero` turns it off.
    public var requestBodyDeadline: Duration
    /// Connections one client address may hold at once (libmicrohttpd's
    /// `MHD_OPTION_PER_IP_CONNECTION_LIMIT`). A connection past it is accepted and closed at
    /// once, before any byte is read: the client sees the connection closed (EOF, or a reset if it
    /// had already sent its request) and no response, and it never takes a slot. **Behind a
    /// reverse proxy or load balancer every client has the proxy's address: raise it to the
    /// proxy's connection count or set it to 0 (off).** Browsers open up to 6 connections per
    /// host plus one per open event stream, and clients behind one NAT share an address.
    public var maxConnectionsPerAddress: Int
    /// Request line plus headers (roughly: libmicrohttpd's per-connection memory pool is this
    /// plus 2 KiB, which also holds the response head and an event stream's write buffer). A
    /// bigger header block is refused by libmicrohttpd itself (`431` in its own HTML, or the
    /// connection is closed). The pool was most of what an idle event stream cost (10 KiB of
    /// 18.6 KiB per idle Mountains session: libmicrohttpd 0.9.75 sizes it at `accept`, for every
    /// connection, and touches all of it; docs/benchmarks-history.md, session 10); a stream now gives its
    /// connection back to libmicrohttpd, which frees the pool, once it opens
    /// (`eventStreamsOffLibrary`, session 12).
    public var maxHeaderBytes: Int
    /// Whether an event stream's socket is taken from libmicrohttpd once the stream opens, and
    /// written by the server itself (its pool and connection are freed: an idle stream costs
    /// ~10 KiB less; see `LibMicroHTTPD+StreamHandoff.swift`). `false` leaves streams with
    /// libmicrohttpd, as before session 12.
    public var eventStreamsOffLibrary = true
    /// Arguments in a request's query (`a=1&b=2` is two; every `&`-separated part counts, empty
    /// ones too). libmicrohttpd keeps each in a 64-byte record of the connection's memory pool
    /// (see `maxHeaderBytes`), and 0.9.75 loses a request whose query does not fit: it is never
    /// answered and the connection is held until the idle timeout (`GET /?` and 157 `&`, 200 bytes,
    /// did that). Past this limit, or past what the pool holds beside a long target, the request
    /// is refused with `414 too_many_query_arguments` (JSON) before libmicrohttpd splits the query.
    public var maxQueryArguments: Int
    /// Request body; a larger declared `Content-Length` is refused with `413` before the body is
    /// read, and a chunked body is cut off with `413` as soon as it passes the limit.
    public var maxBodyBytes: Int
    /// Unsent bytes an event stream may hold for a client that is not reading (default 4 MiB,
    /// room for a 10,000-cell snapshot plus the changesets right behind it). Past it the next send
    /// closes the stream (`EventStream.CloseReason.bufferOverflow`); the client reconnects and
    /// resyncs with `Last-Event-ID`. Idle streams hold nothing.
    public var maxEventStreamBufferBytes: Int
    /// Memory all event streams together may hold for unsent bytes (default 256 MiB), counted as
    /// allocated (see `SendBuffer`), so that it bounds RSS. Past it, the streams holding the most
    /// (the clients reading slowest, or not at all) are closed first,
    /// with `EventStream.CloseReason.bufferBudgetExceeded`, until the total is back under it;
    /// their clients reconnect and resync. Bounds the memory of many clients that stop reading,
    /// which `maxEventStreamBufferBytes` alone does not (527 such clients at 4 MiB each: 2 GB).
    /// 0 turns it off.
    public var maxEventStreamBufferTotalBytes: Int
    /// Memory all request bodies being read may take together (default 256 MiB: 256 bodies of
    /// `maxBodyBytes` at once). A body that would pass it is refused, `503 server_busy` with
    /// `Retry-After: 1`, once its bytes are dropped. 0 turns it off.
    public var maxRequestBodyTotalBytes: Int
    /// How event streams are compressed for clients that accept gzip (every browser does);
    /// `nil` sends them plain. See `EventStreamCompression`: with the default, about 150 KiB
    /// per stream while it sends events, freed once it has been idle for a heartbeat interval.
    public var eventStreamCompression: EventStreamCompression?
    /// Pending connections the kernel queues before `accept`.
    public var listenBacklog: Int
    /// Raise the soft `RLIMIT_NOFILE` at start to fit `maxConnections` (up to the hard limit).
    public var raiseFileDescriptorLimit: Bool

    public init(
        maxConnections: Int = 16_384,
        overflowConnections: Int = 64,
        requestTimeout: Duration = .seconds(30),
        maxHeaderBytes: Int = 8 * 1024,
        maxBodyBytes: Int = 1 << 20,
        maxEventStreamBufferBytes: Int = 4 * 1024 * 1024,
        listenBacklog: Int = 4096,
        raiseFileDescriptorLimit: Bool = true,
        requestHeadDeadline: Duration = .seconds(10),
        requestBodyDeadline: Duration = .seconds(30),
        maxConnectionsPerAddress: Int = 256,
        maxEventStreamBufferTotalBytes: Int = 256 * 1024 * 1024,
        maxRequestBodyTotalBytes: Int = 256 * 1024 * 1024,
        eventStreamCompression: EventStreamCompression? = EventStreamCompression(),
        maxQueryArguments: Int = 64
    ) {
        self.maxConnections = maxConnections
        self.overflowConnections = overflowConnections
        self.requestTimeout = requestTimeout
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxEventStreamBufferBytes = maxEventStreamBufferBytes
        self.listenBacklog = listenBacklog
        self.raiseFileDescriptorLimit = raiseFileDescriptorLimit
        self.requestHeadDeadline = requestHeadDeadline
        self.requestBodyDeadline = requestBodyDeadline
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.maxEventStreamBufferTotalBytes = maxEventStreamBufferTotalBytes
        self.maxRequestBodyTotalBytes = maxRequestBodyTotalBytes
        self.eventStreamCompression = eventStreamCompression
        self.maxQueryArguments = maxQueryArguments
    }

    /// libmicrohttpd's memory pool per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`).
    var connectionMemoryBytes: Int { max(4096, maxHeaderBytes) + 2048 }

    /// The query arguments a request target of `bytes` may have: `maxQueryArguments`, bounded
    /// by the 64-byte records left in the pool beside the read buffer, which holds the target
    /// (measured with 0.9.75's default 10 KiB pool: 151 arguments fit beside a short target, 42
    /// beside a 7,000-byte one; this keeps 1 KiB for the rest of the head).
    func queryArgumentCapacity(requestTargetBytes bytes: Int) -> Int {
        max(0, min(maxQueryArguments, (connectionMemoryBytes - bytes - 1024) / 64))
    }

    var requestHeadDeadlineNanoseconds: UInt64 { Self.nanoseconds(requestHeadDeadline) }
    var requestBodyDeadlineNanoseconds: UInt64 { Self.nanoseconds(requestBodyDeadline) }
    /// How long a stream the server writes itself may wait for a client that takes nothing
    /// (libmicrohttpd's idle timeout did this for the streams it held).
    var streamStallNanoseconds: UInt64 { eventStreamsOffLibrary ? Self.nanoseconds(requestTimeout) : 0 }

    /// How often the watcher looks for overdue connections and stalled streams: a quarter of
    /// the shortest deadline, between 50 ms and 1 s; `nil` when all are off.
    var deadlineSweepMilliseconds: Int32? {
        let deadlines = [requestHeadDeadlineNanoseconds, requestBodyDeadlineNanoseconds, streamStallNanoseconds].filter { $0 > 0 }
        guard let shortest = deadlines.min() else { return nil }
        return Int32(min(1_000, max(50, shortest / 4 / 1_000_000)))
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }

    var requestTimeoutSeconds: UInt32 {
        let (seconds, attoseconds) = requestTimeout.components
        return UInt32(clamping: max(1, seconds + (attoseconds > 0 ? 1 : 0)))
    }
}
