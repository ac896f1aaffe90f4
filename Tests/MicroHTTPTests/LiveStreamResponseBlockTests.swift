import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import Testing

/// An open stream's `MHD_Response` holds a block for as long as the stream is open: 64 bytes
/// for an HTTP/1.1 client (chunked: libmicrohttpd never reads through it), 4 KiB, the send size,
/// only for HTTP/1.0.
@Suite("Event streams: the response's block")
struct LiveStreamResponseBlockTests {
    @Test("a chunked stream's response holds a small block; an HTTP/1.0 stream's is the send size")
    func blockSizes() {
        #expect(EventStream.responseBlockBytes(chunked: true) <= 64)
        #expect(EventStream.responseBlockBytes(chunked: false) == 4096)
    }

    @Test("an HTTP/1.0 client gets a 40 KB event whole, unchunked, through the response's block, and the close ends it")
    func http10StreamIsWhole() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let socket = try TestSocket.connect(port: port)
        defer { socket.close() }
        try socket.send("GET /events HTTP/1.0\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n")
        #expect(await hub.opened.wait(for: 1))
        let stream = try #require(hub.all.first)
        let data = (0..<4_000).map { String(format: "%09d", $0) }.joined(separator: ",")
        #expect(stream.send(event: "big", id: "1", data: data))
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
        #expect(body == ": connected\n\nevent: big\nid: 1\ndata: \(data)\n\n")
    }
}
