import Foundation
import MicroHTTP
import Testing
import HTTPTestSupport

/// An event on an idle stream the server writes itself goes out straight from its bytes: one
/// chunk, one `sendmsg`, nothing queued; only what the kernel does not take waits in the
/// buffer, and goes out before anything sent after it (issue 37).
@Suite("Event streams: events sent straight")
struct LiveStreamDirectSendTests {
    @Test("an event with shared bytes on an idle stream is one chunk of the body, and nothing stays queued")
    func oneChunk() async throws {
        let hub = StreamHub()
        let (server, reader, stream) = try await connectedStream(hub)
        defer { server.stop() }
        defer { reader.socket.close() }
        // 40 KB: queued, it went out as three frames of at most 16 KiB.
        let shared = SharedEventBytes(String(repeating: "m1234,", count: 6_000))
        #expect(stream.send(event: "changeset", id: "7", data: EventData(head: #"{"ids":""#, shared: [shared], tail: #""}"#)))
        #expect(stream.unsentByteCount == 0 && stream.heldByteCount == 0, "nothing was queued")
        let chunk = try await offPool { () -> [UInt8] in
            var reader = reader
            while true {
                if let chunk = try reader.reader.takeChunk() { return chunk }
                try reader.reader.fill(timeout: Patience.hangSeconds)
            }
        }
        let expected = "event: changeset\nid: 7\ndata: {\"ids\":\"" + String(repeating: "m1234,", count: 6_000) + "\"}\n\n"
        #expect(chunk.count == expected.utf8.count, "the whole event in one chunk")
        let same = chunk == Array(expected.utf8)
        #expect(same, "the chunk is the event")
    }

    @Test("what the kernel does not take goes first, as it is; events sent meanwhile follow it whole and in order", arguments: [false, true])
    func restGoesFirst(gzip: Bool) async throws {
        let hub = StreamHub()
        let limits = Limits(maxEventStreamBufferBytes: 64 << 20, maxEventStreamBufferTotalBytes: 64 << 20)
        let server = try streamServer(hub: hub, limits: limits)
        defer { server.stop() }
        let port = server.port
        // 16 MiB of pseudo-random letters (gzip leaves more than half of them): far more than
        // loopback's socket buffers take while the client does not read.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let big = [UInt8](unsafeUninitializedCapacity: 16 << 20) { buffer, count in
            for index in 0..<buffer.count {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = 97 + UInt8((seed >> 33) % 26)
            }
            count = buffer.count
        }
        let (blocks, unsent, stream) = try await offPool { () -> ([[String]], Int, EventStream?) in
            var reader = try GzipEventReader.open(port: port, acceptEncoding: gzip ? "gzip" : nil)
            defer { reader.reader.socket.close() }
            _ = try reader.nextBlock()
            // The stream's open closure has run (its preamble came).
            guard let stream = hub.all.first else { return ([], 0, nil) }
            stream.send(event: "big", data: EventData(head: "[", shared: [SharedEventBytes(big)], tail: "]"))
            let unsent = stream.unsentByteCount
            for name in ["a", "b", "c"] { stream.send(event: name, data: name) }
            var blocks: [[String]] = []
            while blocks.count < 4 { blocks.append(try reader.nextBlock()) }
            return (blocks, unsent, stream)
        }
        let sent = try #require(stream)
        #expect(sent.isCompressed == gzip)
        #expect(unsent > 1 << 20, "the client did not read: the rest of the event waited in the buffer")
        try #require(blocks.count == 4)
        let whole = blocks[0] == ["event: big", "data: [" + String(decoding: big, as: UTF8.self) + "]"]
        #expect(whole, "the large event arrived whole")
        #expect(Array(blocks[1...]) == [["event: a", "data: a"], ["event: b", "data: b"], ["event: c", "data: c"]])
        #expect(sent.unsentByteCount == 0 && sent.heldByteCount == 0, "an idle stream holds nothing")
    }
}
