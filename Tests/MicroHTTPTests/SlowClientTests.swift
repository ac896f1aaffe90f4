import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

/// Clients that hold connection slots without finishing a request (slowloris) lose them at the
/// deadline, whatever they trickle, and one address cannot take every slot.
@Suite("Slow clients")
struct SlowClientTests {
    enum Trickle: String, CaseIterable, Sendable {
        /// The request head, one header byte at a time.
        case head
        /// A declared body, one byte at a time.
        case body
        /// One quick request on a keep-alive connection, then the next head, trickled.
        case keepAliveHead
    }

    /// Opens a connection that starts a request it will never finish in time.
    static func startTrickling(_ trickle: Trickle, port: Int) throws -> TestSocket {
        let socket = try TestSocket.connect(port: port)
        switch trickle {
        case .head:
            try socket.send("GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        case .body:
            try socket.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
        case .keepAliveHead:
            try socket.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            var reader = ResponseReader(socket)
            _ = try reader.readResponse()
            try socket.send("GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        }
        return socket
    }

    @Test("trickling clients lose their slots at the deadline, and a healthy client is served meanwhile",
          arguments: Trickle.allCases)
    func deadline(trickle: Trickle) async throws {
        // Every slot (6 served + 2 overflow) is taken by a trickler; deadlines 1 s. The idle
        // timeout (5 s) never fires while a byte comes every 200 ms; it is only the backstop
        // for a cut connection whose shutdown libmicrohttpd would not notice.
        let limits = Limits(maxConnections: 6, overflowConnections: 2, requestTimeout: .seconds(5),
                            requestHeadDeadline: .seconds(1), requestBodyDeadline: .seconds(1),
                            maxConnectionsPerAddress: 0)
        let server = try startServer(limits: limits, handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let sockets = try await offPool { try (0..<8).map { _ in try Self.startTrickling(trickle, port: port) } }
        defer { sockets.forEach { $0.close() } }

        // One byte every 200 ms to every socket still open, until the server has closed them all
        // (or the hang guard passes): only a deadline can free the slots.
        let trickler = Task.detached { () -> Int in
            try await offPool { () -> Int in
                let end = ContinuousClock.now + Patience.hang  // the hang guard only
                var open = Set(sockets.indices)
                while !open.isEmpty && ContinuousClock.now < end {
                    for i in open where sockets[i].isClosedByPeer || !sockets[i].trySend("a") { open.remove(i) }
                    // The behaviour under test: a client this slow (well inside the idle
                    // timeout) is cut by the deadline. The pace is the client's, not a wait.
                    Thread.sleep(forTimeInterval: 0.2)
                }
                return open.count
            }
        }
        // A healthy client gets an answer (200, or a quick 503 while slots are still full), never
        // a hang: it waits at most until the tricklers are cut.
        let healthy = try? await get(port: port, "/hello")
        #expect(healthy.map { [200, 503].contains($0.status) } == true, "healthy client: \(String(describing: healthy?.status))")
        #expect(try await trickler.value == 0, "every trickling connection was closed by the server")
        #expect(await server.countsReach { $0.connections == 0 })
        #expect(try await get(port: port, "/hello").status == 200)
    }

    @Test("one address holds at most maxConnectionsPerAddress; the rest are closed unanswered, others are served")
    func perAddressCap() async throws {
        // No timeout before the hang guard: a connection closes only if it is refused.
        let limits = Limits(maxConnections: 100, maxConnectionsPerAddress: 3).withoutTimeouts
        let server = try startServer(limits: limits, handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let sockets = try await offPool { () -> [TestSocket] in
            try (0..<8).map { _ in
                let socket = try TestSocket.connect(port: port)
                try? socket.send("GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: ")
                return socket
            }
        }
        defer { sockets.forEach { $0.close() } }
        #expect(try await offPool { waitForPeerCloses(sockets, count: 5) } == 5)
        // Every connection was accepted before the fifth refusal; the refused ones are
        // uncounted as libmicrohttpd closes them.
        #expect(await server.countsReach { $0.connections == 3 })
        // What a refused client sees: the connection closed, no response.
        #expect(try await connectionOutcome(port: port, path: "/hello") == "closed")
        // Another address is served at once.
        let other = try await get(port: port, "/hello", from: "127.0.0.2")
        #expect(other.status == 200)
        sockets.forEach { $0.close() }
        #expect(await server.countsReach { $0.connections == 0 })
        #expect(try await get(port: port, "/hello").status == 200)
    }
}
