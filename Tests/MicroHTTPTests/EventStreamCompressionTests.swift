import CZlib
import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

/// Reads a gzip-compressed event stream: chunked transfer, then inflate, then SSE blocks.
struct GzipEventReader {
    var reader: ResponseReader
    var headers: [String: String]
    var text = ""
    /// Compressed body bytes received so far.
    var compressedBytes = 0
    /// inflate returned Z_STREAM_END: the gzip member is complete.
    var memberEnded = false
    /// The last chunk (size 0) arrived.
    var chunkedEnded = false
    private let inflater: Inflater

    final class Inflater {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        init() throws {
            stream.initialize(to: z_stream())
            guard czlib_inflate_init_gzip(stream) == Z_OK else { throw ClientError("inflateInit2 failed") }
        }
        deinit { inflateEnd(stream); stream.deinitialize(count: 1); stream.deallocate() }

        /// Inflates `input`; returns the output and whether the member ended.
        func inflate(_ input: [UInt8]) throws -> ([UInt8], Bool) {
            var output: [UInt8] = []
            var ended = false
            try input.withUnsafeBufferPointer { input in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = UInt32(input.count)
                var room = [UInt8](repeating: 0, count: 65_536)
                repeat {
                    let (result, produced) = room.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                        stream.pointee.next_out = buffer.baseAddress
                        stream.pointee.avail_out = UInt32(buffer.count)
                        let result = CZlib.inflate(stream, Z_SYNC_FLUSH)
                        return (result, buffer.count - Int(stream.pointee.avail_out))
                    }
                    output += room[0..<produced]
                    if result == Z_STREAM_END { ended = true; break }
                    guard result == Z_OK || result == Z_BUF_ERROR else { throw ClientError("inflate failed: \(result)") }
                } while stream.pointee.avail_out == 0
            }
            return (output, ended)
        }
    }

    static func open(port: Int, acceptEncoding: String?) throws -> GzipEventReader {
        let socket = try TestSocket.connect(port: port)
        let accept = acceptEncoding.map { "Accept-Encoding: \($0)\r\n" } ?? ""
        try socket.send("GET /events HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\(accept)\r\n")
        var reader = ResponseReader(socket)
        let (status, head) = try reader.readHead(timeout: Patience.hangSeconds)
        guard status == 200 else { throw ClientError("status \(status)") }
        return GzipEventReader(reader: reader, headers: Dictionary(head.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a }),
                               inflater: try Inflater())
    }

    var isGzip: Bool { headers["content-encoding"] == "gzip" }

    /// The next SSE block, decoding only what has arrived (so a block that needs more bytes
    /// than were flushed never comes: the hang guard fails it).
    mutating func nextBlock(timeout: Double = Patience.hangSeconds) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let block = EventReader.takeBlock(&text) { return block }
            if reader.closed || chunkedEnded { throw ClientError("stream ended") }
            if try !decodeChunks() {
                try reader.fill(timeout: max(0.01, deadline.timeIntervalSinceNow))
                if Date() > deadline { throw ClientError("timed out") }
            }
        }
    }

    /// Reads until the last chunk; returns whether the gzip member and the body ended cleanly.
    mutating func readToEnd(timeout: Double = Patience.hangSeconds) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !chunkedEnded && !reader.closed && Date() < deadline {
            if try !decodeChunks() { try reader.fill(timeout: max(0.01, deadline.timeIntervalSinceNow)) }
        }
        return chunkedEnded && memberEnded
    }

    private mutating func decodeChunks() throws -> Bool {
        var progressed = false
        while let body = try reader.takeChunk() {
            progressed = true
            if body.isEmpty { chunkedEnded = true; break }
            compressedBytes += body.count
            if isGzip {
                let (plain, ended) = try inflater.inflate(body)
                text += String(decoding: plain, as: UTF8.self)
                memberEnded = memberEnded || ended
            } else {
                text += String(decoding: body, as: UTF8.self)
            }
        }
        return progressed
    }
}

@Suite("Event streams: gzip")
struct EventStreamCompressionTests {
    @Test("Accept-Encoding: gzip is read as HTTP says (explicit entries win, then *, q=0 refuses)")
    func acceptEncoding() {
        let accepted = ["gzip", "gzip, deflate, br, zstd", "deflate, GZIP ; q=0.8", "*;q=0.5", "x-gzip", "br, *"]
        let refused: [String?] = [nil, "", "identity", "deflate, br", "gzip;q=0", "*;q=0", "*, gzip;q=0", "gzipped"]
        for value in accepted { #expect(EventStreamCompression.acceptsGzip(value), "\(value)") }
        for value in refused { #expect(!EventStreamCompression.acceptsGzip(value), "\(value ?? "nil")") }
    }

    @Test("a client that accepts gzip gets a gzip stream, each event decodable as soon as it is sent and compressed, small ones too")
    func compressedAndFlushed() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let ids = (0..<10_000).map { "\"m\($0)\"" }.joined(separator: ",")
        let small = String(repeating: "one ", count: 500)
        let result = try await offPool { () -> ([[String]], Int, Int, [String: String]) in
            var events = try GzipEventReader.open(port: port, acceptEncoding: "gzip, deflate, br")
            defer { events.reader.socket.close() }
            var blocks = [try events.nextBlock()]
            // One event at a time: the next is sent only once the previous one was decoded, so
            // a stream that held bytes back in the compressor would hang here (the hang guard).
            var before = events.compressedBytes
            hub.broadcast(event: "changeset", id: "1", data: small)
            blocks.append(try events.nextBlock())
            let stored = events.compressedBytes - before
            before = events.compressedBytes
            hub.broadcast(event: "snapshot", id: "2", data: "{\"ids\":[\(ids)]}")
            blocks.append(try events.nextBlock())
            let big = events.compressedBytes - before
            _ = hub.all.map { $0.heartbeat() }
            blocks.append(try events.nextBlock())
            return (blocks, big, stored, events.headers)
        }
        let (blocks, big, stored, headers) = result
        #expect(headers["content-encoding"] == "gzip")
        #expect(headers["vary"] == "Accept-Encoding")
        #expect(blocks.count == 4)
        #expect(blocks.first == [": connected"])
        #expect(blocks.dropFirst().first == ["event: changeset", "id: 1", "data: \(small)"])
        #expect(stored < small.utf8.count / 4, "a small event is compressed too: \(stored) bytes")
        #expect(blocks.dropFirst(2).first == ["event: snapshot", "id: 2", "data: {\"ids\":[\(ids)]}"])
        #expect(blocks.last == [": heartbeat"])
        #expect(big > 0 && big * 3 < ids.utf8.count, "\(big) compressed bytes for \(ids.utf8.count)")
        #expect(hub.all.allSatisfy { $0.isCompressed })
    }

    @Test("close() ends the gzip member and the body cleanly")
    func closeEndsTheMember() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub) { stream, _ in
            stream.send(event: "bye", data: "last")
            stream.close()
        }
        defer { server.stop() }
        let port = server.port
        let (blocks, clean) = try await offPool { () -> ([[String]], Bool) in
            var events = try GzipEventReader.open(port: port, acceptEncoding: "gzip")
            defer { events.reader.socket.close() }
            let blocks = [try events.nextBlock(), try events.nextBlock()]
            return (blocks, try events.readToEnd())
        }
        #expect(blocks == [[": connected"], ["event: bye", "data: last"]])
        #expect(clean)
        #expect(await hub.closed.wait(for: 1))
        #expect(hub.closeReasons == [.closedByServer])
    }

    @Test("plain when the client does not accept gzip, when compression is off, or when the handler chose an encoding")
    func plainOtherwise() async throws {
        let hub = StreamHub()
        let compressed = Mutex<[Bool]>([])
        let server = try startServer { request in
            .eventStream(headers: request.path == "/identity" ? ["Content-Encoding": "identity"] : [:]) { stream in
                compressed.withLock { $0.append(stream.isCompressed) }
            }
        }
        var off = Limits()
        off.eventStreamCompression = nil
        let plainServer = try streamServer(hub: hub, limits: off) { stream, _ in compressed.withLock { $0.append(stream.isCompressed) } }
        defer { server.stop(); plainServer.stop() }
        let (port, plainPort) = (server.port, plainServer.port)
        let results = try await offPool { () -> [(String?, [String])] in
            var results: [(String?, [String])] = []
            for (port, accept) in [(port, nil), (port, "gzip;q=0, deflate"), (plainPort, "gzip")] as [(Int, String?)] {
                var events = try GzipEventReader.open(port: port, acceptEncoding: accept)
                defer { events.reader.socket.close() }
                results.append((events.headers["content-encoding"], try events.nextBlock()))
            }
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send("GET /identity HTTP/1.1\r\nHost: test\r\nAccept-Encoding: gzip\r\n\r\n")
            var reader = ResponseReader(socket)
            let head = try reader.readHead(timeout: Patience.hangSeconds).1
            results.append((head.first { $0.0.lowercased() == "content-encoding" }?.1, []))
            return results
        }
        #expect(results.map(\.0) == [nil, nil, nil, "identity"])
        #expect(results.prefix(3).allSatisfy { $0.1 == [": connected"] })
        #expect(compressed.withLock { $0 } == [false, false, false, false])
    }
}
