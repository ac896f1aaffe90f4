import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// Answering: our `Response` turned into an `MHD_Response` and queued on its connection.

/// Turns `response` into an `MHD_Response` and queues it. Event streams are registered, get no
/// idle timeout, join the hang-up watcher, and are handed to their `open` closure.
func queue(_ response: Response, context: RequestContext, core: ServerCore) -> MHD_Result {
    var response = response
    response.headers[RequestID.header] = context.requestID
    let connection = context.connection.pointer
    var stream: EventStream?
    var socket: Int32 = -1
    var open: (@Sendable (EventStream) -> Void)?
    var mhdResponse: OpaquePointer?
    /// The stream's socket was taken from libmicrohttpd (`LibMicroHTTPD+StreamHandoff.swift`):
    /// the connection is suspended until its dummy response is queued.
    var handedOff = false

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
        if let opened = core.openStream(connection: context.connection, connectionID: context.connectionID, socket: socket, gzip: gzip,
                                       chunked: context.chunked) {
            stream = opened
            // zlib could not set up the stream: it goes out plain.
            if gzip && !opened.isCompressed { response.headers["Content-Encoding"] = nil }
            open = handler
            if let dummy = core.handOff(opened, context: context, headers: response.headers) {
                mhdResponse = dummy
                handedOff = true
            }
        }
        if let opened = stream, !handedOff {
            let retained = Unmanaged.passRetained(opened).toOpaque()
            let block = EventStream.responseBlockBytes(chunked: context.chunked)
            mhdResponse = MHD_create_response_from_callback(CMHD_SIZE_UNKNOWN, block, { cls, _, buffer, max in
                guard let cls, let buffer else { return CMHD_CONTENT_READER_END_WITH_ERROR }
                return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: max)
            }, retained, { cls in
                if let cls { Unmanaged<EventStream>.fromOpaque(cls).release() }
            })
            if mhdResponse == nil { Unmanaged<EventStream>.fromOpaque(retained).release() }
        } else if stream == nil {
            response = ServerCore.serverStopping.response
            mhdResponse = response.body.bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
    case .promised:
        // `ServerCore.dispatch` waits for the promised response and delivers that one.
        response = HTTPError(.internalServerError, code: "internal_error", message: "The response was not given").response
        mhdResponse = response.body.bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    }

    let wasActive = context.state.withLock { s in
        s.phase = .answered
        // A stream off libmicrohttpd is not ended by its request's completion.
        s.stream = handedOff ? nil : stream
        defer { s.active = false }
        return s.active
    }
    if wasActive { answered(response, context: context, core: core) }
    // Sending the answer is our time, not the client's: no deadline from here.
    core.setRequestComplete(true, connectionID: context.connectionID)
    guard let mhdResponse else {
        core.logger.warning("could not create a response", metadata: ["path": "\(context.rawPath)", "errno": "\(errno)"])
        if let stream { core.streamEnded(stream, defaultReason: .serverStopped) }
        context.state.withLock { $0.stream = nil }
        return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }

    if handedOff {
        // libmicrohttpd sends its dummy response to the dummy socket and closes it.
        let result = MHD_queue_response(connection, 200, mhdResponse)
        context.connection.resume()
        if let stream {
            open?(stream)
            stream.startOwnSocket()
        }
        return result
    }
    for field in response.headers {
        if MHD_add_response_header(mhdResponse, field.name, field.value) != .YES {
            core.logger.warning("dropped an invalid response header", metadata: ["name": "\(field.name)", "path": "\(context.rawPath)"])
        }
    }
    let result = MHD_queue_response(connection, UInt32(clamping: response.status.code), mhdResponse)

    // A stream keeps the ordinary idle timeout: libmicrohttpd does not time out a suspended
    // (idle) connection and restarts the clock when it is resumed, so the timeout only counts
    // while it tries to send to a client that accepts nothing, and closes that connection even
    // if it missed the shutdown of a stream we cut (with no timeout, such a slot stayed taken).
    if let stream, let open, result == .YES {
        open(stream)
    }
    return result
}

/// A response is queued: timed under its route, counted when it is a refusal, and logged
/// (debug: one line a request, its fields as metadata).
private func answered(_ response: Response, context: RequestContext, core: ServerCore) {
    let status = response.status.code
    core.metrics.requestEnded(context.method, rawPath: context.rawPath, status: status, started: context.started)
    if status >= 400 { core.metrics.responseQueued(status: status, body: response.body.bytes) }
    core.logger.debug("request", metadata: [
        "method": .string(context.method.rawValue),
        "route": .string(core.metrics.route(context.method, context.rawPath)),
        "path": .string(context.rawPath),
        "status": .stringConvertible(status),
        "duration_ms": .string(milliseconds(ContinuousClock.now - context.started)),
        "bytes": .stringConvertible(response.body.byteCount),
        "request_id": .string(context.requestID),
    ])
}

/// `1.234`: a duration in milliseconds, three decimals.
private func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let fraction = String(micros % 1000)
    return "\(micros / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

extension Response.Body {
    /// The body's length when known (0 for a stream or a promise).
    var byteCount: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .file(let file): Int(file.size)
        case .eventStream, .promised: 0
        }
    }

    /// The in-memory bytes (empty for files and streams).
    var bytes: [UInt8] {
        if case .bytes(let bytes) = self { return bytes }
        return []
    }
}
