import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd 0.9.75 refuses a few request heads itself while parsing their headers, before
// the access handler sees them: a `Content-Length` that is not a number (400) or past 2⁶⁴ (413),
// and a `Cookie` header that does not fit in the connection's pool (431). Its refusal queues an
// error page and builds its header block; then the state machine (`HEADERS_RECEIVED` in
// `connection.c`) overwrites the state with the next one, reaches `START_REPLY` again and builds
// the header block a second time: the client got two header blocks and a body that is neither.
// No callback runs in between, but libmicrohttpd logs the refusal (through our logger, on the
// connection's own thread) just before it queues it. So the answer is given here: our JSON
// error, written straight to the socket, then the sending side shut down. libmicrohttpd's own
// bytes then fail to send (EPIPE) and it closes the connection: the client reads one
// well-formed response and the end of the stream.

extension ServerCore {
    /// The status of a refusal libmicrohttpd logged (`Error processing request (HTTP response
    /// code is 400 (…)). Closing connection.`), or `nil` for any other message.
    static func refusalStatus(logged message: String) -> Int? {
        let prefix = "Error processing request (HTTP response code is "
        guard message.hasPrefix(prefix) else { return nil }
        return Int(message.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// libmicrohttpd is refusing a request head with `status` on this thread. When the head is
    /// one it parsed completely without calling the access handler (the state in which it sends
    /// its header block twice), answers it with a JSON error instead; refusals made while the
    /// head was still arriving (414, 431 for a long line) are libmicrohttpd's, and well formed.
    ///
    /// The connection is the only one of this polling thread whose head libmicrohttpd has
    /// parsed while the access handler has not seen it: libmicrohttpd goes from a parsed head to
    /// the access handler within one call on its thread, so no other connection is in between.
    /// - Complexity: O(open connections), only when libmicrohttpd refuses a request.
    func libraryRefusedHead(status: Int) {
        let thread = pthread_self()
        let target = registry.withLock { r -> Int32? in
            var found: UInt64?
            for (id, connection) in r.connections where !connection.refusedHead && pthread_equal(connection.thread, thread) != 0 {
                guard case .awaitingHead = connection.phase, let handle = connection.handle,
                      cmhd_connection_head_parsed(handle.pointer) != 0 else { continue }
                // Two candidates cannot happen (see above); if they did, leave it to libmicrohttpd.
                guard found == nil else { return nil }
                found = id
            }
            guard let found, let connection = r.connections[found] else { return nil }
            r.connections[found]?.refusedHead = true
            return connection.socket
        }
        guard let target, target >= 0 else { return }
        let bytes = Self.refusalBytes(status: status, limits: limits)
        // The connection's first bytes of this response: the send buffer has room for 300 bytes
        // unless the client stopped reading earlier responses, and then it gets none either way.
        _ = bytes.withUnsafeBytes { send(target, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        _ = shutdown(target, Int32(SHUT_WR))
        logger.debug("answered a request head libmicrohttpd refused", metadata: ["status": "\(status)"])
    }

    /// The whole response for a refused head: status line, headers and JSON body.
    static func refusalBytes(status: Int, limits: Limits) -> [UInt8] {
        let error: HTTPError
        switch status {
        case 400:
            error = HTTPError(.badRequest, code: "invalid_content_length", message: "Content-Length is not a number")
        case 413:
            error = HTTPError(.payloadTooLarge, message: "The body is larger than \(limits.maxBodyBytes) bytes")
        case 431:
            error = HTTPError(.requestHeaderFieldsTooLarge, code: "header_fields_too_large",
                              message: "The request head does not fit in \(limits.maxHeaderBytes) bytes")
        default:
            error = HTTPError(HTTPStatus(code: status))
        }
        let response = error.response
        let body = response.body.bytes
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for field in response.headers where field.name.lowercased() != "connection" {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
