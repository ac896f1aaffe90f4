import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// An event stream's socket, taken from libmicrohttpd when the stream opens, so that an open
// stream costs libmicrohttpd nothing: 0.9.75 mallocs each connection a memory pool of
// `MHD_OPTION_CONNECTION_MEMORY_LIMIT` (the header limit + 2 KiB, 10 KiB by default) at accept
// and frees it only when the connection closes; with its `struct MHD_Connection` that was most of
// what an idle stream cost (issue 22: 10,000 idle sessions).
//
// Read in 0.9.75's source (`daemon.c`, `connection.c`), the steps and why each is safe:
// 1. `MHD_suspend_connection`, in the access handler: `internal_suspend_connection_` takes the
//    connection out of its lists and, at once (not when the handler returns), out of
//    libmicrohttpd's epoll set (`EPOLL_CTL_DEL` on the descriptor, while it still names the
//    client's socket), so no epoll set of libmicrohttpd's holds the socket under a pointer to a
//    connection it will free.
// 2. The socket leaves our watcher's set too (it is registered by number and socket), then
//    `cmhd_take_socket` duplicates it for the stream and puts a dummy under libmicrohttpd's
//    number (`dup3`): a TCP socket connected to itself, so that all libmicrohttpd still does
//    with the number succeeds and nothing is logged (a Unix socket failed its TCP_NODELAY and
//    TCP_CORK, `MHD_connection_set_nodelay_state_` in `mhd_send.c`: three log lines a stream).
// 3. A response of no body with `Connection: close` is queued (allowed on a suspended
//    connection) and the connection resumed: libmicrohttpd writes it to the dummy, reports the
//    request complete (`MHD_REQUEST_TERMINATED_COMPLETED_OK`; the request's context no longer
//    names the stream, so nothing ends it), and closes: `MHD_connection_close_` frees the pool
//    and the response, `MHD_connection_mark_closed_`'s `shutdown(SHUT_WR)` and the `close` go
//    to the dummy (closed with a reset: no TIME_WAIT).
// 4. The stream writes the head itself (status 200, the response's headers, `Connection:
//    close`, chunked for HTTP/1.1), then its body (`EventStream+OwnSocket.swift`).
//
// Why at the start and not once a stream is idle: one way for every stream (one writer, one
// lifecycle), and the pool is freed for the next connection at once.
extension ServerCore {
    /// Takes an event stream's socket from libmicrohttpd as described above; returns the
    /// response to queue on libmicrohttpd's connection instead of the stream (the caller
    /// queues it, then resumes the connection), or `nil` when the stream stays with
    /// libmicrohttpd (the connection is not suspended then). In the access handler, on
    /// libmicrohttpd's thread.
    func handOff(_ stream: EventStream, context: RequestContext, headers: HTTPHeaders) -> OpaquePointer? {
        guard limits.eventStreamsOffLibrary, stream.isOpen, stream.socket >= 0 else { return nil }
        context.connection.suspend()
        // Not suspended (0.9.75 skips a connection still marked as resuming): still in
        // libmicrohttpd's epoll set, so the socket cannot be taken; nor may it be resumed.
        guard cmhd_connection_is_suspended(context.connection.pointer) != 0 else { return nil }
        guard let dummyResponse = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT),
              MHD_add_response_header(dummyResponse, "Connection", "close") == .YES else {
            context.connection.resume()
            return nil
        }
        guard let taken = takeStreamSocket(connectionID: context.connectionID, socket: stream.socket, stream: stream) else {
            MHD_destroy_response(dummyResponse)
            context.connection.resume()
            return nil
        }
        let head = EventStream.responseHead(headers: headers, chunked: stream.chunked)
        stream.takeSocket(taken, head: head) { [weak self] stream, token in
            self?.ownStreamSocketClosed(stream, token: token)
        }
        return dummyResponse
    }
}

extension EventStream {
    /// The head of a stream's response as the server writes it itself: `200 OK`, `headers`
    /// (fields libmicrohttpd would refuse, with a line break or an empty or invalid name, are
    /// left out, as `MHD_add_response_header` leaves them), `Connection: close` (the socket is
    /// closed when the stream ends: it is never reused for another request), a `Date`, and
    /// `Transfer-Encoding: chunked` for an HTTP/1.1 client (an HTTP/1.0 client's body ends at
    /// the close).
    static func responseHead(headers: HTTPHeaders, chunked: Bool) -> [UInt8] {
        var head = "HTTP/1.1 200 OK\r\n"
        for field in headers {
            let name = field.name.lowercased()
            guard !field.name.isEmpty, name != "connection", name != "transfer-encoding", name != "content-length", name != "date",
                  !field.name.utf8.contains(where: { $0 <= 32 || $0 == 58 || $0 >= 127 }),
                  !field.value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) else { continue }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Connection: close\r\n"
        if chunked { head += "Transfer-Encoding: chunked\r\n" }
        head += "Date: \(httpDate())\r\n\r\n"
        return Array(head.utf8)
    }

    /// Now, as an HTTP date (`Thu, 26 Nov 2026 04:30:00 GMT`).
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 40)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
