import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import Synchronization
import Testing

/// An event stream's socket is taken from libmicrohttpd once the stream opens: libmicrohttpd
/// holds no connection for it (its pool and connection are freed), and the server writes the
/// head, the events, the heartbeats and the end itself. Each test also runs with
/// `eventStreamsOffLibrary = false` where that shows the difference (the streams stay with
/// libmicrohttpd: what the server did before).
@Suite("Event streams: off libmicrohttpd")
struct LiveStreamHandoffTests {
    @Test("libmicrohttpd holds no connection for an open stream, which still delivers events and heartbeats and counts as a connection")
    func libraryHoldsNoStream() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let (opened, status) = try await offPool { try EventReader.open(port: port) }
        defer { opened.socket.close() }
        #expect(status == 200)
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        #expect(stream.ownsSocket)
        #expect(await server.libraryConnectionsFreed(), "libmicrohttpd closed its side")
        #expect(server.openConnectionCount == 1, "the stream is still counted")
        #expect(stream.send(event: "one", id: "1", data: "a"))
        stream.heartbeat()
        #expect(stream.send(event: "two", id: "2", data: "b"))
        let blocks = try await offPool { () -> [[String]] in
            var reader = opened
            return try (0..<4).map { _ in try reader.nextBlock() }
        }
        #expect(blocks == [[": connected"], ["event: one", "id: 1", "data: a"], [": heartbeat"], ["event: two", "id: 2", "data: b"]])
        #expect(stream.isOpen)
    }

    @Test("the client sees the head only once the stream's open closure has run, and the stream counts as one connection throughout")
    func headAfterOpen() async throws {
        let hub = StreamHub()
        let opened = Atomic(false)
        let countDuringOpen = Atomic(-1)
        let serverBox = Mutex<HTTPServer?>(nil)
        let server = try streamServer(hub: hub) { stream, _ in
            // libmicrohttpd has not closed its side yet: the connection and the stream are one.
            countDuringOpen.store(serverBox.withLock { $0?.openConnectionCount } ?? -1, ordering: .relaxed)
            // The behaviour under test: an open closure slow enough that a head sent before it
            // ran would arrive first. Load only makes it slower, which the test must survive.
            Thread.sleep(forTimeInterval: 0.3)
            stream.send(event: "first", data: "x")
            opened.store(true, ordering: .releasing)
        }
        serverBox.withLock { $0 = server }
        defer { server.stop() }
        let port = server.port
        let (seenOpen, blocks) = try await offPool { () -> (Bool, [[String]]) in
            var (reader, status) = try EventReader.open(port: port)
            defer { reader.socket.close() }
            guard status == 200 else { throw ClientError("status \(status)") }
            let seenOpen = opened.load(ordering: .acquiring)
            return (seenOpen, [try reader.nextBlock(), try reader.nextBlock()])
        }
        #expect(seenOpen, "the head arrived before the open closure had run")
        #expect(blocks == [[": connected"], ["event: first", "data: x"]])
        #expect(countDuringOpen.load(ordering: .relaxed) == 1, "a handed-off stream was counted twice while libmicrohttpd closed its side")
    }

    @Test("with the handoff off, libmicrohttpd holds the stream's connection (the server before)")
    func handoffOff() async throws {
        let hub = StreamHub()
        var limits = Limits()
        limits.eventStreamsOffLibrary = false
        let server = try streamServer(hub: hub, limits: limits)
        defer { server.stop() }
        let port = server.port
        let (opened, _) = try await offPool { try EventReader.open(port: port) }
        defer { opened.socket.close() }
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        #expect(!stream.ownsSocket)
        #expect(server.libraryConnectionCount == 1)
    }

    @Test("the head is written by the server: 200, the stream's headers, chunked, Connection: close")
    func head() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let headers = try await offPool { () -> [(String, String)] in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send("GET /events HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n")
            var reader = ResponseReader(socket)
            let (status, headers) = try reader.readHead(timeout: Patience.hangSeconds)
            guard status == 200 else { throw ClientError("status \(status)") }
            return headers
        }
        let fields = Dictionary(headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a })
        #expect(fields["content-type"] == "text/event-stream; charset=utf-8")
        #expect(fields["cache-control"] == "no-cache")
        #expect(fields["transfer-encoding"] == "chunked")
        #expect(fields["connection"] == "close")
        #expect(fields["date"] != nil)
        #expect(headers.filter { $0.0.lowercased() == "connection" }.count == 1)
    }

    @Test("a client that hangs up ends its stream (.clientDisconnected) and frees its connection")
    func hangUp() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let (opened, _) = try await offPool { try EventReader.open(port: port) }
        #expect(await hub.opened.wait(for: 1))
        #expect(await server.libraryConnectionsFreed())
        opened.socket.close()
        #expect(await hub.closed.wait(for: 1))
        #expect(hub.closeReasons == [.clientDisconnected])
        #expect(await server.countsReach { $0.connections == 0 && $0.eventStreams == 0 })
    }

    @Test("close() sends what is queued, the chunked terminator, then closes the connection (.closedByServer)")
    func serverClose() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let (opened, _) = try await offPool { try EventReader.open(port: port) }
        defer { opened.socket.close() }
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        #expect(stream.ownsSocket)
        let data = String(repeating: "z", count: 100_000)
        #expect(stream.send(event: "last", data: data))
        stream.close()
        let (block, clean, closed) = try await offPool { () -> ([String], Bool, Bool) in
            var reader = opened
            _ = try reader.nextBlock()
            let block = try reader.nextBlock()
            let clean = try reader.readToEnd(timeout: Patience.hangSeconds)
            try reader.reader.waitForClose(timeout: Patience.hangSeconds)
            return (block, clean, reader.reader.closed)
        }
        #expect(block == ["event: last", "data: \(data)"])
        #expect(clean && closed)
        #expect(await hub.closed.wait(for: 1))
        #expect(hub.closeReasons == [.closedByServer])
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("a graceful stop (SIGTERM) ends streams off libmicrohttpd cleanly (.serverStopped), within the grace")
    func gracefulStop() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        let port = server.port
        let readers = try await offPool { () -> [EventReader] in
            try (0..<3).map { _ in
                var (reader, _) = try EventReader.open(port: port)
                _ = try reader.nextBlock()
                return reader
            }
        }
        defer { readers.forEach { $0.socket.close() } }
        #expect(await hub.opened.wait(for: 3))
        #expect(await server.libraryConnectionsFreed())
        // The grace period is the hang guard: a stream that held the stop would run into it and
        // be cut, not end cleanly.
        let report = await server.shutdown(gracePeriod: Patience.hang)
        #expect(report.streamsClosed == 3 && report.streamsEndedCleanly == 3, "no stream held the stop")
        let clean = try await offPool { try readers.map { reader in var reader = reader; return try reader.readToEnd(timeout: Patience.hangSeconds) } }
        #expect(clean == [true, true, true])
        #expect(hub.closeReasons == [.serverStopped, .serverStopped, .serverStopped])
    }

    @Test("stop() ends streams off libmicrohttpd at once (.serverStopped) and closes their sockets")
    func hardStop() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        let port = server.port
        let (opened, _) = try await offPool { try EventReader.open(port: port) }
        defer { opened.socket.close() }
        #expect(await hub.opened.wait(for: 1))
        #expect(await server.libraryConnectionsFreed())
        await server.stop()
        #expect(hub.closeReasons == [.serverStopped])
        #expect(server.openConnectionCount == 0)
        try await offPool { var reader = opened.reader; try reader.waitForClose(timeout: Patience.hangSeconds) }
    }

    @Test("an HTTP/1.0 stream is taken too: unchunked, ended by the close")
    func http10() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let socket = try TestSocket.connect(port: server.port)
        defer { socket.close() }
        try socket.send("GET /events HTTP/1.0\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n")
        #expect(await hub.opened.wait(for: 1))
        #expect(await server.libraryConnectionsFreed())
        let stream = try #require(hub.all.first)
        #expect(stream.ownsSocket)
        #expect(stream.send(event: "e", data: "1"))
        stream.heartbeat()
        stream.close()
        let body = try await offPool { () -> String in
            var reader = ResponseReader(socket)
            let (status, headers) = try reader.readHead(timeout: Patience.hangSeconds)
            guard status == 200, !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" }) else {
                throw ClientError("status \(status), headers \(headers)")
            }
            try reader.waitForClose(timeout: Patience.hangSeconds)
            return String(decoding: reader.buffer, as: UTF8.self)
        }
        #expect(body == ": connected\n\nevent: e\ndata: 1\n\n: heartbeat\n\n")
    }

    @Test("a gzip stream off libmicrohttpd decodes: events, a heartbeat that frees the deflate state, the trailer")
    func gzip() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let data = (0..<3_000).map { "item-\($0)" }.joined(separator: ",")
        let (gzip, owns, blocks, clean) = try await offPool { () -> (Bool, Bool, [[String]], Bool) in
            var reader = try GzipEventReader.open(port: port, acceptEncoding: "gzip")
            defer { reader.reader.socket.close() }
            // The head comes once the stream's open closure has run: the hub has it.
            guard let stream = hub.all.first else { throw ClientError("no stream") }
            stream.send(event: "a", id: "1", data: data)
            stream.heartbeat()
            stream.heartbeat()
            stream.send(event: "b", id: "2", data: data)
            stream.close()
            var blocks: [[String]] = []
            while blocks.last?.first != "event: b" { blocks.append(try reader.nextBlock()) }
            return (reader.isGzip, stream.ownsSocket, blocks, try reader.readToEnd())
        }
        #expect(gzip && owns)
        #expect(blocks.first == [": connected"])
        #expect(blocks.contains(["event: a", "id: 1", "data: \(data)"]))
        #expect(blocks.last == ["event: b", "id: 2", "data: \(data)"])
        #expect(clean)
    }
}

/// `maxConnectionsPerAddress` still counts streams libmicrohttpd gave away.
@Suite("Event streams off libmicrohttpd: the per-address limit")
struct LiveStreamHandoffAddressTests {
    @Test("streams off libmicrohttpd count against maxConnectionsPerAddress: one more connection is closed unanswered, another address is served")
    func streamsCount() async throws {
        let hub = StreamHub()
        // No timeout before the hang guard: a connection closes only if it is refused.
        let limits = Limits(maxConnections: 100, maxConnectionsPerAddress: 3).withoutTimeouts
        let server = try streamServer(hub: hub, limits: limits)
        defer { server.stop() }
        let port = server.port
        let readers = try await offPool { try (0..<3).map { _ in try EventReader.open(port: port).0 } }
        defer { readers.forEach { $0.socket.close() } }
        #expect(await hub.opened.wait(for: 3))
        #expect(await server.libraryConnectionsFreed())
        #expect(try await connectionOutcome(port: port, path: "/other") == "closed")
        #expect(try await get(port: port, "/other", from: "127.0.0.2").status == 404)
        readers.forEach { $0.socket.close() }
        #expect(await server.countsReach { $0.connections == 0 })
        #expect(try await get(port: port, "/other").status == 404)
    }
}
