import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

/// A server whose `/events` registers streams in `hub`.
func streamServer(hub: StreamHub, limits: Limits = Limits(), open: (@Sendable (EventStream, Request) -> Void)? = nil) throws -> HTTPServer {
    try startServer(limits: limits) { request in
        guard request.path == "/events" else { return HTTPError(.notFound).response }
        return .eventStream { stream in
            hub.add(stream)
            open?(stream, request)
        }
    }
}

/// A stream server with one client that has read the stream's preamble, and the stream.
func connectedStream(_ hub: StreamHub, limits: Limits = Limits()) async throws -> (HTTPServer, EventReader, EventStream) {
    let server = try streamServer(hub: hub, limits: limits)
    let port = server.port
    let reader = try await offPool { () -> EventReader in
        var (reader, _) = try EventReader.open(port: port)
        _ = try reader.nextBlock()
        return reader
    }
    #expect(await hub.opened.wait(for: 1))
    let stream = try #require(hub.all.first)
    return (server, reader, stream)
}

@Suite("Event streams")
struct EventStreamTests {
    @Test("events arrive in order, framed per spec: ids, multi-line data, heartbeats")
    func framing() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub) { stream, request in
            stream.send(event: "changeset", id: "1", data: "one")
            stream.comment("heartbeat")
            stream.send(id: "2", data: "line1\nline2\r\nline3\rline4")
            stream.send(event: "evil\nevent: injected", id: "3\r\n", data: "")
            stream.send(data: "resume from \(request.lastEventID ?? "start")")
        }
        defer { server.stop() }
        let port = server.port
        let blocks = try await offPool { () -> [[String]] in
            var (events, status) = try EventReader.open(port: port, headers: ["Last-Event-ID": "41"])
            defer { events.socket.close() }
            guard status == 200 else { throw ClientError("status \(status)") }
            return try (0..<6).map { _ in try events.nextBlock() }
        }
        #expect(blocks == [
            [": connected"],
            ["event: changeset", "id: 1", "data: one"],
            [": heartbeat"],
            ["id: 2", "data: line1", "data: line2", "data: line3", "data: line4"],
            ["event: evilevent: injected", "id: 3", "data: "],
            ["data: resume from 41"],
        ])
    }

    @Test("the stream's response has the event-stream headers")
    func headers() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let head = try await offPool { () -> [(String, String)] in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
            var reader = ResponseReader(socket)
            return try reader.readHead(timeout: Patience.hangSeconds).1
        }
        let fields = Dictionary(head.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a })
        #expect(fields["content-type"] == "text/event-stream; charset=utf-8")
        #expect(fields["cache-control"] == "no-cache")
        #expect(fields["transfer-encoding"] == "chunked")
    }

    @Test("200 idle streams all receive one pushed event")
    func fanOut() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let count = 200
        let readers = try await offPool { () -> [EventReader] in
            try (0..<count).map { _ in
                var (reader, _) = try EventReader.open(port: port)
                _ = try reader.nextBlock()  // ": connected"
                return reader
            }
        }
        defer { readers.forEach { $0.socket.close() } }
        #expect(await hub.opened.wait(for: count))
        #expect(server.openEventStreamCount == count)
        #expect(hub.broadcast(event: "push", id: "7", data: "hello all") == count)
        let received = try await offPool { () -> Int in
            var readers = readers
            var got = 0
            for i in readers.indices where try readers[i].nextBlock() == ["event: push", "id: 7", "data: hello all"] {
                got += 1
            }
            return got
        }
        #expect(received == count)
    }

    @Test("a client that hangs up while idle is freed by the hang-up itself, with no event sent and no timeout")
    func idleDisconnect() async throws {
        let hub = StreamHub()
        // No idle timeout or deadline before the hang guard: only noticing the hang-up frees it.
        let (server, reader, stream) = try await connectedStream(hub, limits: Limits().withoutTimeouts)
        defer { server.stop() }
        // Idle: the client has all the stream sent. The server wrote it on the stream's own
        // socket under the stream's lock, which this takes after, so nothing is in flight.
        #expect(stream.ownsSocket && stream.unsentByteCount == 0)
        #expect(server.openEventStreamCount == 1)
        reader.socket.close()
        #expect(await server.countsReach { $0.eventStreams == 0 })
        #expect(await hub.closed.wait(for: 1))
        #expect(hub.closeReasons == [.clientDisconnected])
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("a client reset in the middle of a burst of events frees the stream")
    func abruptReset() async throws {
        let hub = StreamHub()
        let (server, reader, stream) = try await connectedStream(hub)
        defer { server.stop() }
        let sent = CountSignal()
        let sender = Task.detached {
            var i = 0
            while stream.send(id: "\(i)", data: String(repeating: "z", count: 512)) {
                i += 1
                sent.signal()
                await Task.yield()
            }
            return i
        }
        // In the middle of the burst: once it has sent a hundred events (50 KB, far below the
        // buffer cap: the stream is still open).
        #expect(await sent.wait(for: 100))
        reader.socket.reset()
        #expect(await server.countsReach { $0.eventStreams == 0 })
        #expect(await sender.value > 0)
        #expect(!stream.isOpen)
        #expect(await stream.closed() == .clientDisconnected)
    }

    @Test("close() flushes queued events, then ends the response cleanly")
    func closeFlushes() async throws {
        let hub = StreamHub()
        let sendAfterClose = Mutex<Bool?>(nil)
        let server = try streamServer(hub: hub) { stream, _ in
            for i in 1...3 { stream.send(id: "\(i)", data: "event \(i)") }
            stream.close()
            sendAfterClose.withLock { $0 = stream.send(data: "too late") }
        }
        defer { server.stop() }
        let port = server.port
        let (blocks, clean) = try await offPool { () -> ([[String]], Bool) in
            var (events, _) = try EventReader.open(port: port)
            defer { events.socket.close() }
            let blocks = try (0..<4).map { _ in try events.nextBlock() }
            return (blocks, try events.readToEnd(timeout: Patience.hangSeconds))
        }
        #expect(blocks.dropFirst().map { $0.last } == ["data: event 1", "data: event 2", "data: event 3"])
        #expect(clean)
        #expect(sendAfterClose.withLock { $0 } == false)
        #expect(await hub.closed.wait(for: 1))
        #expect(hub.closeReasons == [.closedByServer])
        #expect(server.openEventStreamCount == 0)
    }

    @Test("a client that stops reading is cut off at the buffer cap, and its slot is freed")
    func slowClientIsCutOff() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub, limits: Limits(requestTimeout: .seconds(5), maxEventStreamBufferBytes: 64 * 1024))
        defer { server.stop() }
        let port = server.port
        let socket = try await offPool { () -> TestSocket in
            var (reader, _) = try EventReader.open(port: port)
            _ = try reader.nextBlock()
            return reader.socket  // and never read again
        }
        defer { socket.close() }
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        let payload = String(repeating: "p", count: 1024)
        var sent = 0
        // Loopback socket buffers take a few MiB before our buffer starts to fill.
        while sent < 50_000, stream.send(data: payload) {
            sent += 1
            if sent % 256 == 0 { await Task.yield() }
        }
        #expect(sent < 50_000)
        #expect(await stream.closed() == .bufferOverflow)
        // The slot is freed once the cut stream's socket is closed (at once), or at the latest by
        // the idle timeout (5 s here): a cut connection whose shutdown was missed is still
        // closed. (It had none, and such a connection stayed open for as long as the client held
        // it.) Awaited, not timed: this proves no leak, not a speed.
        #expect(await server.countsReach { $0.eventStreams == 0 })
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("an idle stream outlives the idle timeout: suspended connections are not timed out")
    func idleStreamOutlivesTimeout() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub, limits: Limits(requestTimeout: .seconds(1)))
        defer { server.stop() }
        let port = server.port
        let opened = try await offPool { () -> EventReader in
            var (reader, _) = try EventReader.open(port: port)
            _ = try reader.nextBlock()
            return reader
        }
        defer { opened.socket.close() }
        #expect(await hub.opened.wait(for: 1))
        var reader = opened
        for i in 0..<2 {
            // The behaviour under test: the idle timeout (1 s) must really pass, twice over, with
            // the stream idle. A busy machine only makes the wait longer, which this must survive.
            try await Task.sleep(for: .milliseconds(2_500))
            #expect(hub.broadcast(id: "\(i)", data: "after idle") == 1)
            let waiting = reader
            let (block, next) = try await offPool { () -> ([String], EventReader) in
                var copy = waiting
                return (try copy.nextBlock(), copy)
            }
            reader = next
            #expect(block == ["id: \(i)", "data: after idle"])
        }
        #expect(hub.closeReasons.isEmpty)
    }

    @Test("a client that stops reading below the buffer cap is closed at the idle timeout")
    func stalledReaderTimesOut() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub, limits: Limits(requestTimeout: .seconds(2), maxEventStreamBufferBytes: 64 << 20))
        defer { server.stop() }
        let port = server.port
        let socket = try await offPool { () -> TestSocket in
            var (reader, _) = try EventReader.open(port: port)
            _ = try reader.nextBlock()
            return reader.socket  // and never read again
        }
        defer { socket.close() }
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        // Enough to fill the loopback socket buffers, far below the 64-MiB cap; then silence.
        // What ends the stream is the server's idle timeout (2 s): awaited, not timed.
        let payload = String(repeating: "s", count: 64 * 1024)
        for _ in 0..<256 where stream.send(data: payload) {}
        #expect(await server.countsReach { $0.eventStreams == 0 })
        #expect(await stream.closed() == .clientDisconnected)
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("an event larger than the buffer cap reaches a client that keeps up, whole")
    func largeEventIsDelivered() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub, limits: Limits(maxEventStreamBufferBytes: 16 * 1024))
        defer { server.stop() }
        let port = server.port
        var (reader, _) = try await offPool { try EventReader.open(port: port) }
        let opened = reader
        reader = try await offPool { var copy = opened; _ = try copy.nextBlock(); return copy }
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        let big = String(repeating: "b", count: 100 * 1024)
        #expect(stream.send(event: "snapshot", id: "1", data: big))
        // Unsent bytes only shrink as the connection drains them: a heartbeat that queued
        // nothing leaves the count the same or lower.
        for _ in 0..<100 {
            let before = stream.unsentByteCount
            guard before > 0 else { break }
            #expect(stream.heartbeat())
            #expect(stream.unsentByteCount <= before, "heartbeats are skipped, not queued, while bytes are pending")
        }
        let waiting = reader
        let (block, afterBlock) = try await offPool { () -> ([String], EventReader) in
            var copy = waiting
            let block = try copy.nextBlock()
            return (block, copy)
        }
        #expect(block.contains("data: " + big))
        #expect(stream.isOpen)
        #expect(stream.send(event: "next", id: "2", data: "small"), "once drained, the stream goes on")
        let rest = afterBlock
        let next = try await offPool { var copy = rest; return try copy.nextBlock() }
        #expect(next == ["event: next", "id: 2", "data: small"] || next == [": heartbeat"],
                "at most a heartbeat queued once the big event was handed over")
    }
}
