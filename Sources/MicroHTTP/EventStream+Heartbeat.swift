// Heartbeats: the comment that keeps proxies from closing an idle stream, written to the
// socket directly when the stream is idle (see `IdleStreamWrite`).
extension EventStream {
    /// A heartbeat comment (`: heartbeat`) that keeps proxies from closing an idle stream.
    /// While earlier bytes are still unsent the stream is not idle, so nothing is queued (and
    /// it returns `true`): a heartbeat never pushes a client still receiving a large event
    /// over the buffer cap.
    ///
    /// On an idle stream (suspended, nothing queued) the heartbeat is written to the socket
    /// here (``IdleStreamWrite``): libmicrohttpd is not woken. A stream whose socket the server
    /// took from libmicrohttpd sends it like any bytes: one `send` when idle.
    @discardableResult
    public func heartbeat() -> Bool {
        let bytes = EventStream.frameComment("heartbeat")
        let direct = state.withLock { s -> Bool? in
            guard case .open = s.phase, s.suspended, s.pending.isEmpty else { return nil }
            var wire = bytes
            // A gzip stream that sent nothing since the previous heartbeat frees its deflate state here.
            if let encoder = s.encoder {
                wire = []
                guard encoder.heartbeat(bytes, appendingTo: &wire) else { return fail(&s) }
            }
            guard IdleStreamWrite.send(wire, to: socket, chunked: chunked) else {
                // Gone, or not reading at all: the connection is shut down and resumed to end.
                return fail(&s, .clientDisconnected)
            }
            s.directHeartbeats += 1
            return true
        }
        if let direct { return direct }
        // A stream whose socket is ours (`EventStream+OwnSocket.swift`): queued and sent at
        // once, one `send` when it is idle.
        let idleOwnSocket = state.withLock { s in s.own.map { $0.isIdle && s.pending.isEmpty } ?? false }
        let queued = enqueue(size: bytes.count, onlyIfIdle: true, plain: { $0.append(bytes) }) { pending, encoder in
            encoder.heartbeat(bytes, appendingTo: &pending)
        }
        if queued && idleOwnSocket { state.withLock { $0.directHeartbeats += 1 } }
        return queued
    }

    /// Heartbeats written straight to the socket (see ``heartbeat()``).
    var directHeartbeatCount: Int { state.withLock { $0.directHeartbeats } }
}
