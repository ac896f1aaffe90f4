import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import Testing

/// An idle stream's heartbeat is written to its socket directly (libmicrohttpd is not woken),
/// as one chunk of the body: what follows it still arrives framed, plain or gzip.
@Suite("Event streams: heartbeats on idle streams")
struct LiveIdleHeartbeatTests {
    /// Heartbeats until one goes out directly (the stream is suspended once libmicrohttpd has
    /// sent everything). Returns how many were sent in all.
    private func heartbeatUntilDirect(_ stream: EventStream) async -> Int? {
        let deadline = ContinuousClock.now + .seconds(20)
        var sent = 0
        while ContinuousClock.now < deadline {
            stream.heartbeat()
            sent += 1
            if stream.directHeartbeatCount > 0 { return sent }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
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
        #expect(await eventually(timeout: .seconds(20)) { hub.count == 1 })
        let stream = try #require(hub.all.first)
        let sent = try #require(await heartbeatUntilDirect(stream), "an idle stream's heartbeat goes to the socket")
        let data = String(repeating: "x", count: 20_000)
        #expect(stream.send(event: "after", id: "7", data: data))
        let blocks = try await offPool { () -> [[String]] in
            var reader = reader
            var blocks: [[String]] = []
            while blocks.last?.first != "event: after" { blocks.append(try reader.nextBlock(timeout: 20)) }
            return blocks
        }
        #expect(blocks.first == [": connected"])
        #expect(blocks.dropFirst().dropLast().allSatisfy { $0 == [": heartbeat"] })
        #expect(blocks.count - 2 >= 1 && blocks.count - 2 <= sent, "the heartbeats arrived, each once")
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
            let deadline = Date().addingTimeInterval(20)
            while hub.count == 0 && Date() < deadline { usleep(10_000) }
            guard let stream = hub.all.first else { throw ClientError("no stream") }
            while stream.directHeartbeatCount == 0 && Date() < deadline {
                stream.heartbeat()
                usleep(20_000)
            }
            stream.heartbeat()  // nothing sent since the last one: the deflate state goes
            let direct = stream.directHeartbeatCount
            let deflateState = stream.hasDeflateState
            stream.send(event: "after", id: "8", data: data)
            stream.close()
            var blocks: [[String]] = []
            while blocks.last?.first != "event: after" { blocks.append(try reader.nextBlock(timeout: 20)) }
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
        #expect(await eventually(timeout: .seconds(20)) { hub.count == 1 })
        let stream = try #require(hub.all.first)
        let sent = try #require(await heartbeatUntilDirect(stream))
        #expect(stream.send(event: "after", data: "1"))
        stream.close()
        let body = try await offPool { () -> String in
            var reader = ResponseReader(socket)
            _ = try reader.readHead(timeout: 20)
            try reader.waitForClose(timeout: 20)
            return String(decoding: reader.buffer, as: UTF8.self)
        }
        let prefix = ": connected\n\n", suffix = "event: after\ndata: 1\n\n"
        #expect(body.hasPrefix(prefix) && body.hasSuffix(suffix))
        let heartbeats = body.dropFirst(prefix.count).dropLast(suffix.count)
        #expect(heartbeats.count % 13 == 0 && (1...sent).contains(heartbeats.count / 13))
        #expect(heartbeats == String(repeating: ": heartbeat\n\n", count: heartbeats.count / 13).dropFirst(0))
    }
}
