import CMicroHTTPD
import Testing
@testable import MicroHTTP

/// The order in which a stream's end is observed, driven directly (no socket): libmicrohttpd's
/// completion callback and the hang-up watcher race, and the reason must not depend on who wins.
@Suite("Event stream endings")
struct EventStreamEndingTests {
    /// Never dereferenced: these streams are never suspended, so nothing calls libmicrohttpd.
    private func stream() throws -> EventStream {
        let pointer = try #require(OpaquePointer(bitPattern: 0x10))
        return EventStream(id: 1, connection: ConnectionHandle(pointer: pointer), socket: -1, bufferLimit: 1 << 20)
    }

    /// Reads until the reader reports the end of the stream.
    private func drain(_ stream: EventStream) -> Int {
        var buffer = [CChar](repeating: 0, count: 4096)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            if n == CMHD_CONTENT_READER_END_OF_STREAM { return total }
            total += n
        }
    }

    @Test("a client that hangs up after reading the whole closed stream does not turn it into a disconnect")
    func hangUpAfterTheEnd() async throws {
        let stream = try stream()
        stream.send(id: "1", data: "last")
        stream.close()
        #expect(drain(stream) > 0)
        stream.abort(.clientDisconnected)  // the watcher saw the FIN first
        stream.finish(default: .closedByServer)
        #expect(await stream.closed() == .closedByServer)
    }

    @Test("a client that hangs up before the closed stream was flushed is a disconnect")
    func hangUpBeforeTheEnd() async throws {
        let stream = try stream()
        stream.send(id: "1", data: "last")
        stream.close()
        stream.abort(.clientDisconnected)
        stream.finish(default: .closedByServer)
        #expect(await stream.closed() == .clientDisconnected)
    }
}
