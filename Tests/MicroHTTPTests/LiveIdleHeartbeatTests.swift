import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import Testing

/// An idle stream's heartbeat is written to its socket directly (libmicrohttpd is not woken),
/// as one chunk of the body: what follows it still arrives framed, plain or gzip.
@Suite("Event streams: heartbeats on idle streams")
struct LiveIdleHeartbeatTests {
    /// A heartbeat on a stream whose client has the response head: the server wrote the head
    /// and the preamble in one go under the stream's lock, which the heartbeat takes after, so
    /// the stream is idle and the heartbeat goes to the socket directly. Returns whether it did.
    private static func idleHeartbeat(_ stream: EventStream) -> Bool {
        let before = stream.directHeartbeatCount
        return stream.ownsSocket && stream.heartbeat() && stream.directHeartbeatCount == before + 1
    }

    @Test("a plain stream's idle heartbeat is written directly; the next event arrives whole after it")
    func plainHeartbeatIsDirect() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let (reader, status) = try await offPool { try EventReader.open(port: port) }
        defer { reader.socket.close() }
        #expect(status == 200)
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        #expect(Self.idleHeartbeat(stream), "an idle stream's heartbeat goes to the socket")
        let data = String(repeating: "x", count: 20_000)
        #expect(stream.send(event: "after", id: "7", data: data))
        let blocks = try await offPool { () -> [[String]] in
            var reader = reader
            var blocks: [[String]] = []
            while blocks.last?.first != "event: after" { blocks.append(try reader.nextBlock()) }
            return blocks
        }
        #expect(blocks.first == [": connected"])
        #expect(blocks.dropFirst().dropLast() == [[": heartbeat"]], "the heartbeat arrived, once")
        #expect(blocks.last == ["event: after", "id: 7", "data: \(data)"])
        #expect(stream.isOpen)
    }

    @Test("a gzip stream's idle heartbeat is written directly and frees the deflate state; the member stays valid")
    func gzipHeartbeatIsDirect() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let data = (0..<3_000).map { "item-\($0)" }.joined(separator: ",")
        // All on one thread: the reader is not Sendable.
        let (gzip, direct, deflateState, blocks) = try await offPool { () -> (Bool, Int, Bool, [[String]]) in
            var reader = try GzipEventReader.open(port: port, acceptEncoding: "gzip")
            defer { reader.reader.socket.close() }
            // The head comes once the stream's open closure has run: the hub has it.
            guard let stream = hub.all.first else { throw ClientError("no stream") }
            guard Self.idleHeartbeat(stream) else { throw ClientError("the idle stream's heartbeat was not written directly") }
            stream.heartbeat()  // nothing sent since the last one: the deflate state goes
            let direct = stream.directHeartbeatCount
            let deflateState = stream.hasDeflateState
            stream.send(event: "after", id: "8", data: data)
            stream.close()
            var blocks: [[String]] = []
            while blocks.last?.first != "event: after" { blocks.append(try reader.nextBlock()) }
            return (reader.isGzip, direct, deflateState, blocks)
        }
        #expect(gzip)
        #expect(direct >= 2, "the idle stream's heartbeats went to the socket")
        #expect(!deflateState)
        #expect(blocks.first == [": connected"])
        #expect(blocks.dropFirst().dropLast().allSatisfy { $0 == [": heartbeat"] })
        #expect(blocks.last == ["event: after", "id: 8", "data: \(data)"])
    }

    @Test("an HTTP/1.0 stream's idle heartbeat goes out unchunked, in order with its events")
    func http10HeartbeatIsDirect() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let socket = try TestSocket.connect(port: server.port)
        defer { socket.close() }
        try socket.send("GET /events HTTP/1.0\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n")
        let opened = try await offPool { () -> ResponseReader in
            var reader = ResponseReader(socket)
            _ = try reader.readHead(timeout: Patience.hangSeconds)
            return reader
        }
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        #expect(Self.idleHeartbeat(stream), "an idle stream's heartbeat goes to the socket")
        #expect(stream.send(event: "after", data: "1"))
        stream.close()
        let body = try await offPool { () -> String in
            var reader = opened
            try reader.waitForClose(timeout: Patience.hangSeconds)
            return String(decoding: reader.buffer, as: UTF8.self)
        }
        #expect(body == ": connected\n\n: heartbeat\n\nevent: after\ndata: 1\n\n")
    }
}
