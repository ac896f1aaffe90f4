// Client sockets per client address, for `Limits.maxConnectionsPerAddress`. libmicrohttpd
// enforces the limit at `accept` over the connections it holds; an event stream whose socket
// the server took (`LibMicroHTTPD+StreamHandoff.swift`) is no longer among them, so the server
// counts every client socket itself (libmicrohttpd's connections and the streams it gave away)
// and shuts down a new connection past the limit before it is read: the client sees the
// connection closed, no response, as libmicrohttpd's own refusal does.
extension ServerCore.Registry {
    /// Adds `delta` to the sockets `peer`'s address holds; returns how many it holds now. An
    /// unknown peer (empty) is not counted.
    /// - Complexity: O(1) (a hash of the address).
    mutating func countSocket(peer: [UInt8], by delta: Int) -> Int {
        guard !peer.isEmpty else { return 0 }
        let key = Self.address(of: peer)
        let count = (socketsByAddress[key] ?? 0) + delta
        socketsByAddress[key] = count > 0 ? count : nil
        return count
    }

    /// A peer's `sockaddr` bytes without its port (bytes 2–3) and, in a `sockaddr_in6` (28
    /// bytes), its flow label (4–7): the client's address.
    static func address(of peer: [UInt8]) -> [UInt8] {
        var key = peer
        let end = key.count >= 28 ? 8 : min(key.count, 4)
        for i in 2..<max(2, end) { key[i] = 0 }
        return key
    }
}
