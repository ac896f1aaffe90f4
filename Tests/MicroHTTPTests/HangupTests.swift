import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

/// Clients that hang up free everything they held, however many leave at once.
@Suite("Hang-ups")
struct HangupTests {
    @Test("many streams (plain or gzip) closed at once free every connection, while an older idle keep-alive connection stays open", arguments: [false, true])
    func manyStreamsClosedAtOnce(gzip: Bool) async throws {
        let count = 600
        let hub = StreamHub()
        // A first event larger than a socket's buffer, as a list's snapshot is: the client closes
        // with part of it unread.
        let snapshot = String(repeating: "x", count: 40_000)
        // No deadline or idle timeout ends the idle connection before the hang guard: the
        // streams' connections must be freed while it is still open, not once it times out.
        let server = try startServer(limits: Limits(maxConnectionsPerAddress: 0).withoutTimeouts) { request in
            if request.path == "/events" {
                return .eventStream { stream in
                    hub.add(stream)
                    stream.send(event: "snapshot", data: snapshot)
                }
            }
            return try await echoHandler(request)
        }
        defer { server.stop() }
        let port = server.port
        // A keep-alive connection idle since before the streams: the oldest in libmicrohttpd's
        // timeout list, whose sweep frees closed connections only from the oldest end on.
        let idle = try await offPool { () -> TestSocket in
            let socket = try TestSocket.connect(port: port)
            try socket.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            var reader = ResponseReader(socket)
            guard try reader.readResponse().status == 200 else { throw ClientError("no answer") }
            return socket
        }
        defer { idle.close() }
        let headers = gzip ? ["Accept-Encoding": "gzip"] : [:]
        let sockets = try await offPool { () -> [TestSocket] in
            var sockets: [TestSocket] = []
            for _ in 0..<count {
                let (reader, status) = try EventReader.open(port: port, headers: headers)
                guard status == 200 else { throw ClientError("stream answered \(status)") }
                sockets.append(reader.socket)
            }
            return sockets
        }
        #expect(await hub.opened.wait(for: count))
        for socket in sockets { socket.close() }
        #expect(await hub.closed.wait(for: count), "\(hub.count) streams still open")
        #expect(await server.countsReach { $0.connections <= 1 },
                "\(server.openConnectionCount) connections still held (only the idle keep-alive may be)")
        #expect(server.openConnectionCount == 1 && !idle.isClosedByPeer, "the idle keep-alive connection is still open")
        #expect(try await get(port: port, "/hello").status == 200)
    }
}
