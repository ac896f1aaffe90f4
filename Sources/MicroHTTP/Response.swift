import Foundation

/// What a handler returns: a status, headers and a body (bytes, an open file, or an event stream).
///
/// ```swift
/// return .json(["ok": true])
/// return .html("<h1>Hi</h1>", status: .notFound)
/// return .redirect(to: "/demos/list")            // 303 See Other
/// var response = Response.text("hello")
/// response.setCookie(SetCookie(name: "sid", value: sid))
/// return response
/// ```
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public enum Body: Sendable {
        /// An in-memory body (copied once into libmicrohttpd).
        case bytes([UInt8])
        /// A file sent with `sendfile` from an already opened descriptor.
        case file(OpenFile)
        /// A `text/event-stream` that stays open; `open` receives the stream once the headers
        /// are queued. See `Response.eventStream(headers:open:)`.
        case eventStream(@Sendable (EventStream) -> Void)
        /// The response is given later, by whoever fulfils the promise (``ResponsePromise``):
        /// its own status, headers and body replace this one's.
        case promised(ResponsePromise)
    }

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.init(status: status, headers: headers, body: .bytes(body))
    }

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Data) {
        self.init(status: status, headers: headers, body: .bytes([UInt8](body)))
    }

    /// Adds a `Set-Cookie` header (several may be set).
    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add(name: "Set-Cookie", value: cookie.headerValue)
    }

    /// A copy with a `Set-Cookie` header added.
    public func settingCookie(_ cookie: SetCookie) -> Response {
        var copy = self
        copy.setCookie(cookie)
        return copy
    }

    // MARK: - Helpers

    /// `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        with(contentType: "text/plain; charset=utf-8", Array(text.utf8), status: status, headers: headers)
    }

    /// `text/html; charset=utf-8`.
    public static func html(_ html: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        with(contentType: "text/html; charset=utf-8", Array(html.utf8), status: status, headers: headers)
    }

    /// Already-encoded JSON.
    public static func json(_ data: Data, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        with(contentType: "application/json", [UInt8](data), status: status, headers: headers)
    }

    /// Encodes `value` as JSON. A value that cannot be encoded gives a 500 in the
    /// `HTTPError` JSON shape (and never traps).
    public static func json<T: Encodable>(
        _ value: T, status: HTTPStatus = .ok, headers: HTTPHeaders = [:], encoder: JSONEncoder = JSONEncoder()
    ) -> Response {
        do {
            return json(try encoder.encode(value), status: status, headers: headers)
        } catch {
            return HTTPError(.internalServerError, code: "encoding_failed", message: "\(error)").response
        }
    }

    /// A redirect (`303 See Other` by default: the browser follows with a GET).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        var response = Response(status: status)
        response.headers["Location"] = location
        return response
    }

    /// The file at `path` (no traversal checks: use `StaticFiles` for client-supplied paths),
    /// with a `Content-Type` from its extension unless given; `nil` when it is not a readable
    /// regular file.
    public static func file(atPath path: String, contentType: String? = nil, headers: HTTPHeaders = [:]) -> Response? {
        guard let file = OpenFile(path: path) else { return nil }
        var response = Response(status: .ok, headers: headers, body: .file(file))
        if response.headers["Content-Type"] == nil {
            response.headers["Content-Type"] = contentType ?? MediaType.forPath(path)
        }
        return response
    }

    /// A `text/event-stream` response that stays open. `open` is called once the stream exists
    /// (on the server's I/O thread: register the stream somewhere and return quickly); from then
    /// on `stream.send(...)` may be called from any thread or task.
    ///
    /// ```swift
    /// return .eventStream { stream in
    ///     hub.add(stream)                        // e.g. a Mutex-protected set
    ///     stream.onClose { _ in hub.remove(stream) }
    /// }
    /// ```
    public static func eventStream(headers: HTTPHeaders = [:], open: @escaping @Sendable (EventStream) -> Void) -> Response {
        var all: HTTPHeaders = [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        ]
        for field in headers { all[field.name] = field.value }
        return Response(status: .ok, headers: all, body: .eventStream(open))
    }

    private static func with(contentType: String, _ bytes: [UInt8], status: HTTPStatus, headers: HTTPHeaders) -> Response {
        var response = Response(status: status, headers: headers, body: .bytes(bytes))
        if response.headers["Content-Type"] == nil { response.headers["Content-Type"] = contentType }
        return response
    }
}
