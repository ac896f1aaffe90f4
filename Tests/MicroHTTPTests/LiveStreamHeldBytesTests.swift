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
        #expect(await hub.opened.wait(for: 1))
        // The client has the preamble, which the stream took from its buffer before sending it.
        #expect(server.unsentEventStreamBytes == 0)
        let stream = try #require(hub.all.first)
        // 8 MiB in one event: more than loopback's socket buffers take while the client waits.
        stream.send(data: String(repeating: "h", count: 8 << 20))
        // The counts, read together: the kernel may still be taking bytes (each count only
        // falls while the client does not read), so they are read again until two readings
        // agree, which brackets a moment when all three held at once.
        func reading() -> (unsent: Int, held: Int, budget: Int) {
            (stream.unsentByteCount, stream.heldByteCount, server.unsentEventStreamBytes)
        }
        var counts = reading()
        while true {
            let again = reading()
            if again == counts { break }
            counts = again
        }
        let (unsent, held, budget) = counts
        #expect(unsent > 1 << 20, "the client has not read: most of the event waits")
        #expect(held >= unsent && held <= unsent + 512 * 1024, "held \(held) for \(unsent) unsent: chunks, not a doubled array")
        #expect(budget == held, "the budget counts what the stream holds")
        // The client reads it all, to the end of the event's last chunk ("\n\n\r\n"): every
        // chunk is freed as it goes out.
        let received = try await offPool { () -> Int in
            var reader = reader
            var bytes = 0
            var tail: [UInt8] = []
            while tail != Array("\n\n\r\n".utf8) && !reader.reader.closed {
                try reader.reader.fill(timeout: Patience.hangSeconds)
                bytes += reader.reader.buffer.count
                tail = Array((tail + reader.reader.buffer.suffix(4)).suffix(4))
                reader.reader.buffer.removeAll(keepingCapacity: true)
            }
            return bytes
        }
        #expect(received >= 8 << 20)
        // The last chunk was taken from the buffer (and the budget) before it was sent.
        #expect(stream.heldByteCount == 0 && server.unsentEventStreamBytes == 0, "an idle stream holds nothing")
    }
}
