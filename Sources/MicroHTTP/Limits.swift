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
/// `413 payload_too_large`, `503 overloaded`, `503 server_stopping`, and, for request framing
/// that two parsers could read differently (request smuggling), `400 conflicting_content_length`
/// (two different `Content-Length` values), `400 ambiguous_framing` (`Content-Length` together
/// with `Transfer-Encoding`) and `501 unsupported_transfer_encoding` (anything but `chunked`).
/// libmicrohttpd 0.9.75 itself would take the first `Content-Length`, let chunked win, and wait
/// for the close on an unknown coding.
///
/// A few refusals come from libmicrohttpd before any of our code runs, and stay its short
/// HTML: `400` (a malformed request line or header, or a `Content-Length` that is not a
/// number), `414` (request line larger than the connection's memory pool), `431` (header block
/// larger than the pool: see `maxHeaderBytes`) and `505` (an HTTP version other than 1.0/1.1).
/// It builds these in `connection.c` from compiled-in strings and queues them itself while
/// parsing the head; the access handler is only called once the head is complete and valid,
/// and `MHD_OPTION_URI_LOG_CALLBACK` (called when the request line is parsed) can only return a
/// context, not queue a response. 0.9.75 has no option to replace those bodies. Each such
/// answer also carries `Connection: close`.
public struct Limits: Sendable, Hashable {
    /// Connections served at once (ordinary requests and event streams together). Past it a
    /// client gets a quick `503` (JSON) and the connection is closed; a little further
    /// (`overflowConnections`) libmicrohttpd stops accepting and new clients wait in the
    /// listen backlog. Clamped to what the file descriptor limit allows (see
    /// `raiseFileDescriptorLimit`).
    public var maxConnections: Int
    /// Extra connections accepted only to be answered `503`.
    public var overflowConnections: Int
    /// Idle time after which an ordinary connection (keep-alive, or a client that stalls while
    /// sending a request: slowloris) is closed. Event streams have no idle timeout; hang-ups are
    /// detected from the socket instead. Whole seconds (rounded up, at least 1).
    public var requestTimeout: Duration
    /// Request line plus headers (roughly: libmicrohttpd's per-connection memory pool is this
    /// plus 2 KiB, which also holds the response head and an event stream's write buffer). A
    /// bigger header block is refused by libmicrohttpd itself (`431` in its own HTML, or the
    /// connection is closed). The pool is most of what an idle event stream costs: measured
    /// 15 KiB per stream with the default, 18 KiB with an 8 KiB larger pool.
    public var maxHeaderBytes: Int
    /// Request body; a larger declared `Content-Length` is refused with `413` before the body is
    /// read, and a chunked body is cut off with `413` as soon as it passes the limit.
    public var maxBodyBytes: Int
    /// Unsent bytes an event stream may hold for a client that is not reading (default 4 MiB,
    /// room for a 10,000-cell snapshot plus the changesets right behind it). Past it the next send
    /// closes the stream (`EventStream.CloseReason.bufferOverflow`); the client reconnects and
    /// resyncs with `Last-Event-ID`. Idle streams hold nothing.
    public var maxEventStreamBufferBytes: Int
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
        raiseFileDescriptorLimit: Bool = true
    ) {
        self.maxConnections = maxConnections
        self.overflowConnections = overflowConnections
        self.requestTimeout = requestTimeout
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxEventStreamBufferBytes = maxEventStreamBufferBytes
        self.listenBacklog = listenBacklog
        self.raiseFileDescriptorLimit = raiseFileDescriptorLimit
    }

    var requestTimeoutSeconds: UInt32 {
        let (seconds, attoseconds) = requestTimeout.components
        return UInt32(clamping: max(1, seconds + (attoseconds > 0 ? 1 : 0)))
    }
}
