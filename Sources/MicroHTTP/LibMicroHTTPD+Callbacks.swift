import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd's callbacks (all on its polling thread), turned into calls on `ServerCore`:
// its log, the request line, connections opening and closing, a request's headers and body,
// its completion.

/// `cls` is `Unmanaged<ServerCore>` retained by `RunningDaemon` until after `MHD_stop_daemon`.
private func core(_ cls: UnsafeMutableRawPointer?) -> ServerCore? {
    cls.map { Unmanaged<ServerCore>.fromOpaque($0).takeUnretainedValue() }
}

let daemonLog: cmhd_log_fn = { cls, message in
    guard let core = core(cls), let message else { return }
    let text = String(cString: message)
    core.lastDaemonMessage.withLock { $0 = text }
    if let status = ServerCore.refusalStatus(logged: text) {
        core.libraryRefusedHead(status: status)
        core.metrics.responseRefusedByLibrary(status: status)
    }
    // libmicrohttpd mostly reports clients misbehaving (resets, malformed requests): debug.
    core.logger.debug("libmicrohttpd: \(text)")
}

/// Keeps the URL and query exactly as sent; `Request` decodes them (so `%2F` and `%2e%2e`
/// stay visible to whoever checks paths, and invalid escapes cannot trip anything).
let keepEscaped: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, s in
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
let requestLineParsed: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
    guard let core = core(cls), let uri,
          cmhd_query_argument_count(uri) > core.limits.queryArgumentCapacity(requestTargetBytes: strlen(uri)) else { return nil }
    cmhd_drop_query(uri)
    return UnsafeMutableRawPointer(bitPattern: tooManyQueryArguments)
}

/// Counts connections (telling the count waiters) and registers each with the hang-up watcher;
/// the id lives in libmicrohttpd's `socket_context` (as a pointer-sized integer, never
/// dereferenced).
let connectionNotify: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let core = core(cls), let socketContext else { return }
    if code == .CONNECTION_NOTIFY_STARTED {
        // On the polling thread that took the connection: its niceness, the first time.
        if let niceness = core.libraryThreadNiceness { _ = cmhd_set_thread_niceness_once(niceness) }
        core.openConnections.add(1, ordering: .sequentiallyConsistent)
        let socket = connection.map { cmhd_connection_fd($0) } ?? -1
        let id = core.connectionStarted(socket: socket, handle: connection.map(ConnectionHandle.init))
        socketContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(id))
        core.countsChanged()
    } else {
        var counted = true
        if let raw = socketContext.pointee {
            counted = core.connectionClosed(id: UInt64(UInt(bitPattern: raw)))
            socketContext.pointee = nil
        }
        if counted {
            core.openConnections.subtract(1, ordering: .sequentiallyConsistent)
            core.countsChanged()
        }
    }
}

private func connectionID(_ connection: OpaquePointer) -> UInt64 {
    cmhd_connection_socket_context(connection).map { UInt64(UInt(bitPattern: $0)) } ?? 0
}

let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestContext, termination in
    guard let core = core(cls), let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    // Refused in its request line, and never seen by the access handler.
    guard !isTooManyQueryArguments(raw) else { return }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    let (stream, unanswered) = context.state.withLock { s -> (EventStream?, Bool) in
        s.phase = .finished
        defer { s.active = false }
        return (s.stream, s.active)
    }
    // Ended without a response (the client left, a deadline): no longer active, not timed.
    if unanswered { core.metrics.requestEnded(context.method, rawPath: context.rawPath, status: nil, started: context.started) }
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

let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let core = core(cls), let connection, let requestContext, let uploadDataSize else { return .NO }
    let handle = ConnectionHandle(pointer: connection)

    guard let raw = requestContext.pointee, !isTooManyQueryArguments(raw) else {
        // First call: the headers are in.
        let queryRefused = isTooManyQueryArguments(requestContext.pointee)
        let context = RequestContext(
            connection: handle,
            connectionID: connectionID(connection),
            method: HTTPMethod(method.map { String(cString: $0) } ?? "GET"),
            rawPath: url.map { String(cString: $0) } ?? "/",
            chunked: version.map { String(cString: $0) != "HTTP/1.0" } ?? true,
            bodies: core.bodyBudget,
            requestID: RequestID.accepted(header(connection, RequestID.header)) ?? RequestID.make())
        requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        core.metrics.requestStarted(context.method)
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
    enum Step { case keepReading, overLimit, busy, giveUp, complete, respond(Response), nothing }
    let size = uploadDataSize.pointee
    let limit = core.limits.maxBodyBytes
    let step = context.state.withLock { s -> Step in
        switch s.phase {
        case .receiving:
            guard size > 0 else { return .complete }
            uploadDataSize.pointee = 0
            if s.body.count + size > limit {
                _ = context.takeBody(&s)
                s.phase = .discarding(dropped: 0)
                return .keepReading
            }
            guard context.bodies?.take(size) ?? true else {
                // All bodies being read hold their budget: this one is dropped and refused.
                _ = context.takeBody(&s)
                s.refusedForBudget = true
                s.phase = .discarding(dropped: 0)
                return .keepReading
            }
            s.bodyCharged += size
            if let uploadData {
                s.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
            return .keepReading
        case .discarding(let dropped):
            guard size > 0 else { return s.refusedForBudget ? .busy : .overLimit }
            uploadDataSize.pointee = 0
            // Past twice the limit, stop reading: close without an answer.
            if dropped + size > max(limit, 64 * 1024) { return .giveUp }
            s.phase = .discarding(dropped: dropped + size)
            return .keepReading
        case .ready(let response):
            return .respond(response)
        case .startingInline, .handling, .answered, .finished:
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
    case .busy:
        return queue(ServerCore.bodiesBusy.response, context: context, core: core)
    case .respond(let response):
        return queue(response, context: context, core: core)
    case .complete:
        if let immediate = core.immediateHandler {
            // Answered here, in the same callback: no task, no suspend/resume.
            let request = makeRequest(connection, context: context, version: version, body: context.state.withLock { $0.body })
            if var response = immediate(request) {
                response.negotiateEventStreamCompression(for: request, core.limits.eventStreamCompression)
                context.state.withLock { _ = context.takeBody(&$0) }
                return queue(response, context: context, core: core)
            }
        }
        let body = context.state.withLock { context.takeBody(&$0) }
        let request = makeRequest(connection, context: context, version: version, body: body)
        let inline = core.runsInline?(request) ?? false
        context.state.withLock { s in
            if inline {
                s.phase = .startingInline
            } else {
                s.phase = .handling
                // Suspended until the handler's task delivers (RequestContext.deliver resumes).
                handle.suspend()
            }
        }
        core.setRequestComplete(true, connectionID: context.connectionID)
        // Inline, the handler runs here until it first waits: a keystroke's write, its events
        // and its answer, all on this thread, with no task hop and no suspend/resume.
        core.dispatch(request, context: context, inline: inline)
        guard inline else { return .YES }
        let answered = context.state.withLock { s -> Response? in
            switch s.phase {
            case .ready(let response):
                return response
            case .startingInline:
                // The handler waits for something: suspended until its task delivers.
                s.phase = .handling
                handle.suspend()
                return nil
            case .receiving, .discarding, .handling, .answered, .finished:
                return nil
            }
        }
        if let answered { return queue(answered, context: context, core: core) }
        return .YES
    }
}
