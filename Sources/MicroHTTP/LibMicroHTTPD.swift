// The bridge to libmicrohttpd: its C callbacks, turned into calls on `ServerCore`, and our
// `Response` turned into an `MHD_Response`. Nothing outside this file calls libmicrohttpd,
// except `ConnectionHandle`'s suspend/resume.
//
// Threading: libmicrohttpd runs every callback here on its one internal polling thread. The
// callbacks stay short (parse, suspend, start a task, queue a response); handlers run in tasks.
import CMicroHTTPD
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `struct MHD_Connection *`.
///
/// `@unchecked Sendable`: the pointer is only dereferenced by libmicrohttpd. Other threads use
/// it for exactly one thing, `MHD_resume_connection`, which libmicrohttpd documents as callable
/// from any thread, and only while the connection is suspended (a suspended connection cannot
/// be completed or freed); `EventStream` and `RequestContext` guarantee that under their locks.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Only from libmicrohttpd's thread, inside one of its callbacks.
    func suspend() { MHD_suspend_connection(pointer) }
    /// From any thread, once per suspension.
    func resume() { MHD_resume_connection(pointer) }
}

/// Shuts a connection's socket down both ways (never closes it: libmicrohttpd owns the
/// descriptor). Its next read or write fails and its poll reports a hang-up, so libmicrohttpd
/// closes the connection itself. Callers guarantee the descriptor is still the connection's.
/// Shuts a connection's socket down. With `peer` (the client's address when it was accepted),
/// only if the descriptor still names that client: libmicrohttpd may already have closed it and
/// the kernel handed the number to a new client (a client that opens a connection per request
/// gets the same number again at once). `nil`: the caller knows the descriptor is still this
/// connection's.
func shutdownConnectionSocket(_ socket: Int32, peer: [UInt8]?) {
    guard socket >= 0 else { return }
    if let peer, peer.isEmpty || socketPeer(socket) != peer { return }
    _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
}

/// The remote address and port of a connected socket, as raw bytes (empty when unknown).
func socketPeer(_ socket: Int32) -> [UInt8] {
    guard socket >= 0 else { return [] }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
    }
    guard result == 0 else { return [] }
    return withUnsafeBytes(of: &storage) { Array($0.prefix(Int(length))) }
}

/// A running `struct MHD_Daemon *` and the C memory it points into.
///
/// `@unchecked Sendable`: the pointers are only passed to `MHD_stop_daemon` (once, by
/// `HTTPServer.stop`, under its lock) and `MHD_get_daemon_info`; the memory is freed after the
/// daemon has stopped.
struct RunningDaemon: @unchecked Sendable {
    let daemon: OpaquePointer
    let core: Unmanaged<ServerCore>
    let address: UnsafeMutableRawPointer?
    let logger: UnsafeMutablePointer<cmhd_logger>
    let port: Int

    /// Ends every stream, answers waiting requests, stops libmicrohttpd (joining its thread and
    /// closing every connection, which runs the completion callbacks), then frees what it used.
    func stop() {
        let core = self.core.takeUnretainedValue()
        let answered = core.beginStop()
        // Give the 503s a moment to reach their clients (libmicrohttpd's own threads write them)
        // before the daemon closes every socket: bounded, so a client that does not read cannot
        // hold the stop.
        let deadline = ContinuousClock.now + .milliseconds(250)
        while !answered.isEmpty && core.isResponding(answered) && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        MHD_stop_daemon(daemon)
        core.watcher.stop()
        self.core.release()
        address?.deallocate()
        logger.deallocate()
    }
}

enum LibMicroHTTPD {
    enum StartError: Error {
        case invalidHost(String)
        case failed(String)
    }

    /// Starts a daemon for `core` on `host:port`.
    static func start(core: ServerCore, host: String, port: Int, threads: Int) throws -> RunningDaemon {
        let limits = core.limits
        var flags = CMHD_FLAGS_DEFAULT
        var address: UnsafeMutableRawPointer?
        switch host {
        case "", "0.0.0.0", "*":
            break
        case "::":
            flags |= CMHD_FLAG_DUAL_STACK
        default:
            let name = host == "localhost" ? "127.0.0.1" : host
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, name, &v4) == 1 {
                let sa = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in>.size, alignment: 8)
                var value = sockaddr_in()
                value.sin_family = sa_family_t(AF_INET)
                value.sin_port = UInt16(port).bigEndian
                value.sin_addr = v4
                sa.storeBytes(of: value, as: sockaddr_in.self)
                address = sa
            } else if inet_pton(AF_INET6, name, &v6) == 1 {
                let sa = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in6>.size, alignment: 8)
                var value = sockaddr_in6()
                value.sin6_family = sa_family_t(AF_INET6)
                value.sin6_port = UInt16(port).bigEndian
                value.sin6_addr = v6
                sa.storeBytes(of: value, as: sockaddr_in6.self)
                address = sa
                flags |= CMHD_FLAG_IPV6
            } else {
                throw StartError.invalidHost(host)
            }
        }

        let retainedCore = Unmanaged.passRetained(core)
        let cls = retainedCore.toOpaque()
        let logger = UnsafeMutablePointer<cmhd_logger>.allocate(capacity: 1)
        logger.initialize(to: cmhd_logger(fn: daemonLog, context: cls))

        var config = cmhd_daemon_config()
        config.flags = flags
        config.port = UInt16(clamping: port)
        config.address = address.map { UnsafePointer($0.assumingMemoryBound(to: sockaddr.self)) }
        config.connection_limit = UInt32(clamping: core.maxConnections.load(ordering: .relaxed) + limits.overflowConnections)
        config.connection_timeout_seconds = limits.requestTimeoutSeconds
        config.per_ip_connection_limit = UInt32(clamping: max(0, limits.maxConnectionsPerAddress))
        config.connection_memory_limit = limits.connectionMemoryBytes
        config.thread_pool_size = UInt32(clamping: max(1, threads))
        config.listen_backlog = UInt32(clamping: max(16, limits.listenBacklog))
        config.access_handler = accessHandler
        config.access_handler_cls = cls
        config.request_completed = requestCompleted
        config.request_completed_cls = cls
        config.connection_notify = connectionNotify
        config.connection_notify_cls = cls
        config.unescape = keepEscaped
        config.unescape_cls = nil
        config.uri_log = requestLineParsed
        config.uri_log_cls = cls
        config.logger = logger

        guard let daemon = cmhd_start_daemon(&config) else {
            retainedCore.release()
            address?.deallocate()
            logger.deallocate()
            let reason = core.lastDaemonMessage.withLock { $0 } ?? "MHD_start_daemon failed"
            throw StartError.failed(reason)
        }
        return RunningDaemon(daemon: daemon, core: retainedCore, address: address, logger: logger, port: Int(cmhd_daemon_port(daemon)))
    }
}

// MARK: - Callbacks (all on libmicrohttpd's thread)

/// `cls` is `Unmanaged<ServerCore>` retained by `RunningDaemon` until after `MHD_stop_daemon`.
private func core(_ cls: UnsafeMutableRawPointer?) -> ServerCore? {
    cls.map { Unmanaged<ServerCore>.fromOpaque($0).takeUnretainedValue() }
}

private let daemonLog: cmhd_log_fn = { cls, message in
    guard let core = core(cls), let message else { return }
    let text = String(cString: message)
    core.lastDaemonMessage.withLock { $0 = text }
    if let status = ServerCore.refusalStatus(logged: text) { core.libraryRefusedHead(status: status) }
    // libmicrohttpd mostly reports clients misbehaving (resets, malformed requests): debug.
    core.logger.debug("libmicrohttpd: \(text)")
}

/// Keeps the URL and query exactly as sent; `Request` decodes them (so `%2F` and `%2e%2e`
/// stay visible to whoever checks paths, and invalid escapes cannot trip anything).
private let keepEscaped: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, s in
    s.map { strlen($0) } ?? 0
}

/// The request context of a request whose query was dropped for having too many arguments (see
/// `requestLineParsed`): an address no object has, never dereferenced, only compared.
private let tooManyQueryArguments: UInt = 0x1

private func isTooManyQueryArguments(_ context: UnsafeMutableRawPointer?) -> Bool {
    context.map { UInt(bitPattern: $0) == tooManyQueryArguments } ?? false
}

/// libmicrohttpd parsed a request line and is about to split its query into arguments, each a
/// record in the connection's memory pool. 0.9.75 loses a request whose arguments overflow the
/// pool (its 431 is overwritten by the next parsing state, and the connection waits, unanswered,
/// for the idle timeout), so a query with too many is emptied here and the request marked: the
/// access handler answers it `414`.
private let requestLineParsed: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
    guard let core = core(cls), let uri,
          cmhd_query_argument_count(uri) > core.limits.queryArgumentCapacity(requestTargetBytes: strlen(uri)) else { return nil }
    cmhd_drop_query(uri)
    return UnsafeMutableRawPointer(bitPattern: tooManyQueryArguments)
}

/// Counts connections and registers each with the hang-up watcher; the id lives in
/// libmicrohttpd's `socket_context` (as a pointer-sized integer, never dereferenced).
private let connectionNotify: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let core = core(cls), let socketContext else { return }
    if code == .CONNECTION_NOTIFY_STARTED {
        core.openConnections.add(1, ordering: .relaxed)
        let socket = connection.map { cmhd_connection_fd($0) } ?? -1
        let id = core.connectionStarted(socket: socket, handle: connection.map(ConnectionHandle.init))
        socketContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(id))
    } else {
        core.openConnections.subtract(1, ordering: .relaxed)
        if let raw = socketContext.pointee {
            core.connectionClosed(id: UInt64(UInt(bitPattern: raw)))
            socketContext.pointee = nil
        }
    }
}

private func connectionID(_ connection: OpaquePointer) -> UInt64 {
    cmhd_connection_socket_context(connection).map { UInt64(UInt(bitPattern: $0)) } ?? 0
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestContext, termination in
    guard let core = core(cls), let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    // Refused in its request line, and never seen by the access handler.
    guard !isTooManyQueryArguments(raw) else { return }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    let stream = context.state.withLock { s -> EventStream? in
        s.phase = .finished
        return s.stream
    }
    core.setRequestComplete(false, connectionID: context.connectionID)
    if let stream {
        let reason: EventStream.CloseReason
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: reason = .closedByServer
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: reason = .serverStopped
        default: reason = .clientDisconnected
        }
        core.streamEnded(stream, defaultReason: reason)
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let core = core(cls), let connection, let requestContext, let uploadDataSize else { return .NO }
    let handle = ConnectionHandle(pointer: connection)

    guard let raw = requestContext.pointee, !isTooManyQueryArguments(raw) else {
        // First call: the headers are in.
        let queryRefused = isTooManyQueryArguments(requestContext.pointee)
        let context = RequestContext(
            connection: handle,
            connectionID: connectionID(connection),
            method: HTTPMethod(method.map { String(cString: $0) } ?? "GET"),
            rawPath: url.map { String(cString: $0) } ?? "/")
        requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        core.headReceived(connectionID: context.connectionID)
        if core.isDraining {
            return queue(ServerCore.serverStopping.response, context: context, core: core)
        }
        if core.openConnections.load(ordering: .relaxed) > core.maxConnections.load(ordering: .relaxed) {
            return queue(ServerCore.overloaded.response, context: context, core: core)
        }
        if let refusal = framingRefusal(connection) {
            return queue(refusal.response, context: context, core: core)
        }
        if queryRefused {
            return queue(HTTPError(.uriTooLong, code: "too_many_query_arguments",
                                   message: "The query has more arguments than the server takes (\(core.limits.maxQueryArguments), fewer in a long target)",
                                   headers: ["Connection": "close"]).response, context: context, core: core)
        }
        if let length = header(connection, "Content-Length").flatMap({ Int($0) }), length > core.limits.maxBodyBytes {
            return queue(tooLarge(core), context: context, core: core)
        }
        return .YES
    }

    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    enum Step { case keepReading, overLimit, giveUp, complete, respond(Response), nothing }
    let size = uploadDataSize.pointee
    let limit = core.limits.maxBodyBytes
    let step = context.state.withLock { s -> Step in
        switch s.phase {
        case .receiving:
            guard size > 0 else { return .complete }
            uploadDataSize.pointee = 0
            if s.body.count + size > limit {
                s.body = []
                s.phase = .discarding(dropped: 0)
                return .keepReading
            }
            if let uploadData {
                s.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
            return .keepReading
        case .discarding(let dropped):
            guard size > 0 else { return .overLimit }
            uploadDataSize.pointee = 0
            // Past twice the limit, stop reading: close without an answer.
            if dropped + size > max(limit, 64 * 1024) { return .giveUp }
            s.phase = .discarding(dropped: dropped + size)
            return .keepReading
        case .ready(let response):
            return .respond(response)
        case .handling, .answered, .finished:
            uploadDataSize.pointee = 0
            return .nothing
        }
    }
    switch step {
    case .keepReading, .nothing:
        return .YES
    case .giveUp:
        core.logger.debug("\(context.method) \(context.rawPath): body far over the limit, connection closed")
        return .NO
    case .overLimit:
        return queue(tooLarge(core), context: context, core: core)
    case .respond(let response):
        return queue(response, context: context, core: core)
    case .complete:
        if let immediate = core.immediateHandler {
            // Answered here, in the same callback: no task, no suspend/resume.
            let request = makeRequest(connection, context: context, version: version, body: context.state.withLock { $0.body })
            if var response = immediate(request) {
                response.negotiateEventStreamCompression(for: request, core.limits.eventStreamCompression)
                context.state.withLock { $0.body = [] }
                return queue(response, context: context, core: core)
            }
        }
        let body = context.state.withLock { s -> [UInt8] in
            defer { s.body = [] }
            s.phase = .handling
            // Suspended until the handler's task delivers (RequestContext.deliver resumes).
            handle.suspend()
            return s.body
        }
        core.setRequestComplete(true, connectionID: context.connectionID)
        let request = makeRequest(connection, context: context, version: version, body: body)
        core.dispatch(request, context: context)
        return .YES
    }
}

// MARK: - Requests

private func tooLarge(_ core: ServerCore) -> Response {
    HTTPError(.payloadTooLarge, message: "The body is larger than \(core.limits.maxBodyBytes) bytes", headers: ["Connection": "close"]).response
}

/// Refuses a body whose length two parsers could read differently (request smuggling):
/// libmicrohttpd 0.9.75 takes the first of two different `Content-Length`s and lets chunked
/// win over a `Content-Length`, and waits for the close on a coding it does not know.
private func framingRefusal(_ connection: OpaquePointer) -> HTTPError? {
    let lengths = headerValues(connection, "Content-Length")
    let codings = headerValues(connection, "Transfer-Encoding")
    if !lengths.isEmpty && !codings.isEmpty {
        return HTTPError(.badRequest, code: "ambiguous_framing",
                         message: "A request may not carry both Content-Length and Transfer-Encoding",
                         headers: ["Connection": "close"])
    }
    if Set(lengths.map(trimmed)).count > 1 {
        return HTTPError(.badRequest, code: "conflicting_content_length",
                         message: "The request has Content-Length headers with different values",
                         headers: ["Connection": "close"])
    }
    if !codings.isEmpty, codings.count > 1 || trimmed(codings[0]).lowercased() != "chunked" {
        return HTTPError(.notImplemented, code: "unsupported_transfer_encoding",
                         message: "Only Transfer-Encoding: chunked is supported", headers: ["Connection": "close"])
    }
    return nil
}

private func trimmed(_ value: String) -> String {
    String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
}

/// Every value of a request header (several fields of one name stay separate).
private func headerValues(_ connection: OpaquePointer, _ name: String) -> [String] {
    var found: (name: String, values: [String]) = (name.lowercased(), [])
    withUnsafeMutablePointer(to: &found) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let found = cls.assumingMemoryBound(to: (name: String, values: [String]).self)
            if string(key, keySize).lowercased() == found.pointee.name {
                found.pointee.values.append(value.map { string($0, valueSize) } ?? "")
            }
            return .YES
        }, pointer)
    }
    return found.values
}

private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

private func makeRequest(_ connection: OpaquePointer, context: RequestContext, version: UnsafePointer<CChar>?, body: [UInt8]) -> Request {
    var headers = HTTPHeaders()
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
            headers.pointee.add(name: string(key, keySize), value: value.map { string($0, valueSize) } ?? "")
            return .YES
        }, pointer)
    }
    var query: [QueryItem] = []
    withUnsafeMutablePointer(to: &query) { pointer in
        _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let items = cls.assumingMemoryBound(to: [QueryItem].self)
            // libmicrohttpd already turned `+` into a space; the escapes are ours to decode.
            items.pointee.append(QueryItem(
                name: PercentDecoding.decode(string(key, keySize), plusAsSpace: false),
                value: value.map { PercentDecoding.decode(string($0, valueSize), plusAsSpace: false) }))
            return .YES
        }, pointer)
    }
    var peer = [CChar](repeating: 0, count: 64)
    let remote = cmhd_connection_peer(connection, &peer, peer.count) == 0
        ? peer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
    return Request(
        method: context.method, rawPath: context.rawPath, queryItems: query, headers: headers,
        body: body, version: version.map { String(cString: $0) } ?? "HTTP/1.1", remoteAddress: remote)
}

private func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
}

// MARK: - Responses

/// Turns `response` into an `MHD_Response` and queues it. Event streams are registered, get no
/// idle timeout, join the hang-up watcher, and are handed to their `open` closure.
private func queue(_ response: Response, context: RequestContext, core: ServerCore) -> MHD_Result {
    var response = response
    let connection = context.connection.pointer
    var stream: EventStream?
    var socket: Int32 = -1
    var open: (@Sendable (EventStream) -> Void)?
    var mhdResponse: OpaquePointer?

    switch response.body {
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .file(let file):
        // libmicrohttpd closes the descriptor it is given; the `OpenFile` closes its own.
        let descriptor = dup(file.descriptor)
        if descriptor >= 0 {
            mhdResponse = MHD_create_response_from_fd64(UInt64(file.size), descriptor)
            if mhdResponse == nil { close(descriptor) }
        }
    case .eventStream(let handler):
        socket = cmhd_connection_fd(connection)
        let gzip = response.headers["Content-Encoding"]?.lowercased() == "gzip"
        if let opened = core.openStream(connection: context.connection, connectionID: context.connectionID, socket: socket, gzip: gzip) {
            stream = opened
            // zlib could not set up the stream: it goes out plain.
            if gzip && !opened.isCompressed { response.headers["Content-Encoding"] = nil }
            open = handler
            let retained = Unmanaged.passRetained(opened).toOpaque()
            mhdResponse = MHD_create_response_from_callback(CMHD_SIZE_UNKNOWN, 4096, { cls, _, buffer, max in
                guard let cls, let buffer else { return CMHD_CONTENT_READER_END_WITH_ERROR }
                return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: max)
            }, retained, { cls in
                if let cls { Unmanaged<EventStream>.fromOpaque(cls).release() }
            })
            if mhdResponse == nil { Unmanaged<EventStream>.fromOpaque(retained).release() }
        } else {
            response = ServerCore.serverStopping.response
            mhdResponse = response.body.bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
    }

    context.state.withLock { s in
        s.phase = .answered
        s.stream = stream
    }
    // Sending the answer is our time, not the client's: no deadline from here.
    core.setRequestComplete(true, connectionID: context.connectionID)
    guard let mhdResponse else {
        core.logger.warning("could not create a response", metadata: ["path": "\(context.rawPath)", "errno": "\(errno)"])
        if let stream { core.streamEnded(stream, defaultReason: .serverStopped) }
        context.state.withLock { $0.stream = nil }
        return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }

    for field in response.headers {
        if MHD_add_response_header(mhdResponse, field.name, field.value) != .YES {
            core.logger.warning("dropped an invalid response header", metadata: ["name": "\(field.name)", "path": "\(context.rawPath)"])
        }
    }
    let result = MHD_queue_response(connection, UInt32(clamping: response.status.code), mhdResponse)
    core.logger.debug("\(context.method) \(context.rawPath) \(response.status.code) \(ContinuousClock.now - context.started)")

    // A stream keeps the ordinary idle timeout: libmicrohttpd does not time out a suspended
    // (idle) connection and restarts the clock when it is resumed, so the timeout only counts
    // while it tries to send to a client that accepts nothing, and closes that connection even
    // if it missed the shutdown of a stream we cut (with no timeout, such a slot stayed taken).
    if let stream, let open, result == .YES {
        open(stream)
    }
    return result
}

extension Response.Body {
    /// The in-memory bytes (empty for files and streams).
    var bytes: [UInt8] {
        if case .bytes(let bytes) = self { return bytes }
        return []
    }
}
