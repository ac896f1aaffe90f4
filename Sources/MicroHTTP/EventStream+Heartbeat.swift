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
    /// took from libmicrohttpd (`EventStream+OwnSocket.swift`) writes it the same way, with
    /// nothing queued: one `send`.
    @discardableResult
    public func heartbeat() -> Bool {
        let bytes = EventStream.frameComment("heartbeat")
        let direct = state.withLock { s -> Bool? in
            guard case .open = s.phase, s.suspended || s.own?.isIdle == true, s.pending.isEmpty else { return nil }
            var wire = bytes
            // A gzip stream that sent nothing since the previous heartbeat frees its deflate state here.
            if let encoder = s.encoder {
                wire = []
                guard encoder.heartbeat(bytes, appendingTo: &wire) else { return fail(&s) }
                // Its state may be freed now.
                recharge(&s)
            }
            if s.own != nil {
                // A socket of our own: written at once, one `send`; what the kernel does not
                // take waits for room like any frame.
                s.own?.frame = IdleStreamWrite.frame(wire, chunked: chunked)
                s.own?.sent = 0
                writeOwnSocket(&s)
                s.directHeartbeats += 1
                return true
            }
            guard IdleStreamWrite.send(wire, to: socket, chunked: chunked) else {
                // Gone, or not reading at all: the connection is shut down and resumed to end.
                return fail(&s, .clientDisconnected)
            }
            s.directHeartbeats += 1
            return true
        }
        if let direct {
            // A socket of our own that failed is closed: the server is told here.
            reportOwnSocketEnd()
            if direct, let metrics {
                let counters = metrics.events(named: nil)
                counters.events.increment()
                counters.bytes.increment(by: bytes.count)
            }
            return direct
        }
        return enqueue(size: bytes.count, event: nil, onlyIfIdle: true, plain: [bytes]) { pending, encoder in
            encoder.heartbeat(bytes, appendingTo: &pending)
        }
    }

    /// Heartbeats written straight to the socket (see ``heartbeat()``).
    var directHeartbeatCount: Int { state.withLock { $0.directHeartbeats } }
}
