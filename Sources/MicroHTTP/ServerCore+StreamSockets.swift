import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// A stream's socket, taken: the descriptor, its connection id, its stall clock.
struct OwnSocketTaken {
    let socket: Int32
    let token: UInt64
    let progress: SendProgress
}

// Event streams whose socket the server took from libmicrohttpd (see
// `LibMicroHTTPD+StreamHandoff.swift`): each is a connection of its own in the registry, under
// a new id, watched for hang-ups and for room to write, and counted in `openConnections` (the
// count of the connection it was, moved to it) until its socket is closed.
extension ServerCore {
    /// Takes `socket`, the descriptor of the suspended connection `connectionID` (out of
    /// libmicrohttpd's epoll set), for `stream`: a duplicate becomes the stream's socket, and a
    /// dummy socket takes the number for what libmicrohttpd still does with it. Returns the
    /// stream's socket and its new connection id, or `nil` (nothing changed) when the server is
    /// stopping or a descriptor could not be had. On libmicrohttpd's thread.
    func takeStreamSocket(connectionID: UInt64, socket: Int32, stream: EventStream) -> OwnSocketTaken? {
        registry.withLock { r -> OwnSocketTaken? in
            guard socket >= 0, !r.stopping, !r.draining, var connection = r.connections[connectionID], connection.socket == socket else {
                return nil
            }
            // Out of the watcher's set while the number still names the client's socket: once
            // the dummy has the number, the old entry could not be removed.
            guard watcher.unwatch(socket: socket) else { return nil }
            let own = cmhd_take_socket(socket)
            guard own >= 0 else {
                watcher.watch(socket: socket, token: connectionID)
                return nil
            }
            let token = r.nextConnectionID
            r.nextConnectionID += 1
            let progress = SendProgress(token: token, stalledStreams: stalledStreams)
            r.connections[token] = Connection(socket: own, phase: .responding, stream: stream, peer: connection.peer)
            connection.socket = -1
            connection.stream = nil
            connection.handedOff = true
            r.connections[connectionID] = connection
            // The stream's socket keeps the count of the connection it was (`openConnections`,
            // the address's): when libmicrohttpd closes the dummy, nothing is subtracted. Counted
            // twice meanwhile, a stream could be refused as past `maxConnections`.
            // Registered after the hang-up, if any: epoll reports a state the socket is already in.
            if !watcher.watchStream(socket: own, token: token) {
                logger.warning("could not watch an event stream's socket", metadata: ["errno": "\(errno)"])
            }
            return OwnSocketTaken(socket: own, token: token, progress: progress)
        }
    }

    /// A stream's own socket is closed: forget its connection and finish the stream.
    func ownStreamSocketClosed(_ stream: EventStream, token: UInt64) {
        stalledStreams.remove(token: token)
        registry.withLock { r in
            if let connection = r.connections.removeValue(forKey: token) { _ = r.countSocket(peer: connection.peer, by: -1) }
        }
        openConnections.subtract(1, ordering: .sequentiallyConsistent)
        // Which tells the count waiters (`countsChanged()`) of both changes.
        streamEnded(stream, defaultReason: .closedByServer)
    }

    /// The watcher saw room to write on a stream's own socket.
    func streamSocketWritable(token: UInt64) {
        let stream = registry.withLock { $0.connections[token]?.stream }
        stream?.ownSocketWritable()
    }
}
