import Foundation
import MicroHTTP
import Testing
import HTTPTestSupport

/// The stream budget counts the memory a stream holds for its unsent bytes (its buffer's
/// chunks), which falls as the client takes them, and cuts the streams holding the most.
@Suite("Event stream budget: held bytes")
struct LiveStreamHeldBytesTests {
    @Test("the budget is the sum of what the streams hold; a large event is uncounted chunk by chunk as the client reads it")
    func heldBytesAreCounted() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub, limits: Limits(maxEventStreamBufferBytes: 64 << 20, maxEventStreamBufferTotalBytes: 64 << 20))
        defer { server.stop() }
        let port = server.port
        let reader = try await offPool { () -> EventReader in
            var (reader, _) = try EventReader.open(port: port)
            _ = try reader.nextBlock()
            return reader
        }
        defer { reader.socket.close() }
        #expect(await eventually { hub.count == 1 && server.unsentEventStreamBytes == 0 })
        let stream = try #require(hub.all.first)
        // 8 MiB in one event: more than loopback's socket buffers take while the client waits.
        stream.send(data: String(repeating: "h", count: 8 << 20))
        // Once the kernel has taken what it takes, the counts hold still.
        var last = -1
        for _ in 0..<50 where stream.unsentByteCount != last {
            last = stream.unsentByteCount
            try await Task.sleep(for: .milliseconds(200))
        }
        let (unsent, held) = (stream.unsentByteCount, stream.heldByteCount)
        #expect(unsent > 1 << 20, "the client has not read: most of the event waits")
        #expect(held >= unsent && held <= unsent + 512 * 1024, "held \(held) for \(unsent) unsent: chunks, not a doubled array")
        #expect(server.unsentEventStreamBytes == held, "the budget counts what the stream holds")
        // The client reads it all: every chunk is freed as it goes out.
        let received = try await offPool { () -> Int in
            var reader = reader
            var bytes = 0
            let end = Date().addingTimeInterval(30)
            while bytes < 8 << 20 && Date() < end && !reader.reader.closed {
                try? reader.reader.fill(timeout: 0.2)
                bytes += reader.reader.buffer.count
                reader.reader.buffer.removeAll(keepingCapacity: true)
            }
            return bytes
        }
        #expect(received >= 8 << 20)
        #expect(await eventually { stream.heldByteCount == 0 && server.unsentEventStreamBytes == 0 }, "an idle stream holds nothing")
    }
}
