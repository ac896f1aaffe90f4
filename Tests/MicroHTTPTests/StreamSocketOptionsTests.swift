import CMicroHTTPD
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An event stream's socket, taken from libmicrohttpd, sends each event at once: Nagle's
/// algorithm off, no cork, whatever libmicrohttpd left on it. (With Nagle on, a write that
/// followed one the client had not yet acknowledged waited for its delayed ACK: one plain
/// keystroke in a hundred took 44 ms, docs/benchmarks-history.md, session 17.)
@Suite("Stream sockets: TCP_NODELAY, never corked")
struct StreamSocketOptionsTests {
    /// A connected pair of TCP sockets on loopback: (the server's side, the client's).
    func connectedPair() throws -> (server: Int32, client: Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw SocketError(errno: errno) }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
        }
        guard connected else { throw SocketError(errno: errno) }
        let server = accept(listener, nil, nil)
        guard server >= 0 else { throw SocketError(errno: errno) }
        return (server, client)
    }

    func option(_ socket: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = -1
        var size = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(socket, Int32(IPPROTO_TCP), name, &value, &size)
        return value
    }

    @Test("a socket left with Nagle on and corked is taken with TCP_NODELAY on and no cork")
    func takenSocketSendsAtOnce() throws {
        let (server, client) = try connectedPair()
        defer { close(client) }
        var on: Int32 = 1, off: Int32 = 0
        _ = setsockopt(server, Int32(IPPROTO_TCP), TCP_NODELAY, &off, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(server, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
        #expect(option(server, TCP_NODELAY) == 0 && option(server, TCP_CORK) != 0, "the state libmicrohttpd may leave")
        let own = cmhd_take_socket(server)
        try #require(own >= 0)
        defer { close(own); close(server) }
        #expect(option(own, TCP_NODELAY) != 0, "Nagle's algorithm is off")
        #expect(option(own, TCP_CORK) == 0, "not corked")
    }
}

private struct SocketError: Error {
    let errno: Int32
}
