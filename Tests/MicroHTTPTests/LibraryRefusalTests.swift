import Foundation
@testable import MicroHTTP
import Testing
import HTTPTestSupport

/// Requests libmicrohttpd 0.9.75 itself would lose or garble: each is answered once, in JSON.
@Suite("Requests libmicrohttpd refuses")
struct LibraryRefusalTests {
    /// Everything the server sends on one connection until it closes it (or the hang guard
    /// passes: then `closed` is `false`).
    private func rawExchange(port: Int, _ raw: String) async throws -> (bytes: [UInt8], closed: Bool) {
        try await offPool {
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send(raw)
            var reader = ResponseReader(socket)
            while !reader.closed {
                do { try reader.fill(timeout: Patience.hangSeconds) } catch { break }
            }
            return (reader.buffer, reader.closed)
        }
    }

    private func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.components(separatedBy: needle).count - 1
    }

    @Test("a query with more arguments than the pool holds is answered 414 in JSON, at once",
          arguments: [157, 400, 2_000])
    func manyQueryArguments(ampersands: Int) async throws {
        // Held, it would be answered only by a timeout, and there is none before the hang guard:
        // an answer at all is one not left to the idle timeout.
        let server = try startServer(limits: Limits().withoutTimeouts, handler: echoHandler)
        defer { server.stop() }
        let target = "/hello?" + String(repeating: "&", count: ampersands)
        let response = try await get(port: server.port, target)
        #expect(response.status == 414)
        #expect(response.json["error"] == "too_many_query_arguments")
        #expect(try await get(port: server.port, "/hello").status == 200)
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("a query at the limit is served with every argument")
    func queryAtTheLimit() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let limit = Limits().maxQueryArguments
        let query = (0..<limit).map { "a\($0)=\($0)" }.joined(separator: "&")
        let response = try await get(port: server.port, "/echo?" + query)
        #expect(response.status == 200)
        #expect(response.json["q.a\(limit - 1)"] == "\(limit - 1)")
        let over = try await get(port: server.port, "/echo?" + query + "&more=1")
        #expect(over.status == 414)
    }

    /// libmicrohttpd refuses these heads itself while parsing their headers, and 0.9.75 then
    /// built its header block twice.
    @Test("a head libmicrohttpd refuses after parsing it gets one response with a JSON body", arguments: [
        ("Content-Length: abc", 400),
        ("Content-Length: 99999999999999999999999", 413),
        ("Cookie: 1,200 of them", 431),
    ] as [(String, Int)])
    func refusedHead(field: String, status: Int) async throws {
        let field = field.hasPrefix("Cookie") ? "Cookie: " + String(repeating: "a=b; ", count: 1_200) + "c=d\r\n" : field + "\r\n"
        // No timeout before the hang guard: the close that ends the exchange is the refusal's.
        let server = try startServer(limits: Limits().withoutTimeouts, handler: echoHandler)
        defer { server.stop() }
        let (bytes, closed) = try await rawExchange(port: server.port, "GET /hello HTTP/1.1\r\nHost: t\r\n\(field)\r\n")
        #expect(closed)
        #expect(occurrences(of: "HTTP/1.1 ", in: bytes) == 1, "one status line: \(String(decoding: bytes.prefix(600), as: UTF8.self))")
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        #expect(parts.first?.hasPrefix("HTTP/1.1 \(status) ") == true)
        let head = parts.first?.lowercased() ?? ""
        #expect(head.contains("content-type: application/json"))
        #expect(head.contains("content-length: \(parts.last?.utf8.count ?? -1)"))
        let body = try JSONSerialization.jsonObject(with: Data((parts.last ?? "").utf8)) as? [String: Any]
        #expect(body?["error"] is String)
        #expect(try await get(port: server.port, "/hello").status == 200)
    }
}
