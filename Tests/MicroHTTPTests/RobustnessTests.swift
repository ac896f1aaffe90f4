import Foundation
import Synchronization
@testable import MicroHTTP
import Testing
import HTTPTestSupport

/// Whatever a client sends, the server keeps serving and frees what the client held.
@Suite("Hostile and broken clients")
struct RobustnessTests {
    /// Each malformed head and what libmicrohttpd 0.9.75 answers (its own refusals): a status,
    /// or `nil` when it closes the connection without a word (nothing parses as a request line).
    @Test("malformed request lines are refused exactly as expected and the server keeps serving", arguments: [
        ("GARBAGE\r\n\r\n", nil),
        ("GET\r\n\r\n", nil),
        ("GET / HTTP/9.9\r\nHost: t\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
        ("\r\n\r\n\r\n", nil),
        ("GET /hello HTTP/1.1\r\nHost: t\r\nContent-Length: -5\r\n\r\n", 400),
        ("GET /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
    ] as [(String, Int?)])
    func malformed(raw: String, expected: Int?) async throws {
        // Blank lines only are no head yet: libmicrohttpd waits for one, and the head deadline
        // closes the connection (short here, so that the wait for that close is short).
        let server = try startServer(limits: Limits(requestHeadDeadline: .seconds(1)), handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let status = try await offPool { () -> Int? in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send(raw)
            // No half-close: libmicrohttpd would race its answer against seeing the FIN.
            var reader = ResponseReader(socket)
            do {
                return try reader.readResponse().status
            } catch where reader.closed {
                return nil  // closed without a word
            }
        }
        #expect(status == expected)
        #expect(try await get(port: port, "/hello").status == 200)
    }

    @Test("a header block over the limit is refused and the server keeps serving")
    func hugeHeaders() async throws {
        let server = try startServer(limits: Limits(maxHeaderBytes: 4096), handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let big = String(repeating: "h", count: 64 * 1024)
        let status = try await offPool { () -> Int? in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try? socket.send("GET /hello HTTP/1.1\r\nHost: t\r\nX-Big: \(big)\r\n\r\n")
            var reader = ResponseReader(socket)
            return try? reader.readResponse().status
        }
        #expect(status == 431, "libmicrohttpd refuses a header block over its pool with 431")
        let ordinary = try await get(port: port, "/echo", headers: ["X-Test": String(repeating: "o", count: 1000)])
        #expect(ordinary.status == 200)
    }

    @Test("invalid UTF-8 in the path, query and headers is replaced, not trusted")
    func invalidUTF8() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        var raw = Array("GET /echo%FF%FE/".utf8) + [0xC3, 0x28] + Array("?q=%C3%28&r=".utf8) + [0xFF]
        raw += Array(" HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Test: ".utf8) + [0xFE, 0xFF] + Array("\r\n\r\n".utf8)
        let response = try await exchange(port: server.port, raw)
        if response.status == 200 {
            #expect(response.json["path"]?.contains("\u{FFFD}") == true)
            #expect(response.json["q.q"] == "\u{FFFD}(")
        } else {
            #expect(response.status == 400)
        }
        #expect(try await get(port: server.port, "/hello").status == 200)
    }

    @Test("a client that sends its headers too slowly is disconnected after the timeout")
    func slowloris() async throws {
        // The idle timeout (1 s) is what is under test: with the head and body deadlines off,
        // nothing else closes the connection.
        let limits = Limits(requestTimeout: .seconds(1), requestHeadDeadline: .zero, requestBodyDeadline: .zero)
        let server = try startServer(limits: limits, handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        try await offPool {
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send("GET /hello HTTP/1.1\r\nHost: t\r\n")
            var reader = ResponseReader(socket)
            try reader.waitForClose(timeout: Patience.hangSeconds)
        }
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("a half-closed client still gets its response")
    func halfClosed() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let response = try await offPool { () -> HTTPResponse? in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            socket.shutdownWrite()
            var reader = ResponseReader(socket)
            return try? reader.readResponse()
        }
        // libmicrohttpd answers a half-closed client when it read the request before it saw the
        // FIN, and closes otherwise (both seen, under load): what is exact is that it never
        // answers wrongly, and that nothing is left behind.
        #expect(response.map { $0.status == 200 && $0.text == "hello" } ?? true)
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("1,000 clients connecting and vanishing do not exhaust the connection limit")
    func connectAndVanish() async throws {
        let hub = StreamHub()
        // No timeout or deadline before the hang guard: only noticing each client leave frees it.
        let server = try startServer(limits: Limits(maxConnections: 50, overflowConnections: 8).withoutTimeouts) { request in
            if request.path == "/events" { return .eventStream { hub.add($0) } }
            return try await echoHandler(request)
        }
        defer { server.stop() }
        let port = server.port
        try await offPool {
            for i in 0..<1_000 {
                let socket = try TestSocket.connect(port: port)
                switch i % 5 {
                case 0: socket.close()
                case 1:
                    try? socket.send("GET /hel")
                    socket.close()
                case 2:
                    try? socket.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
                    socket.reset()
                case 3:
                    try? socket.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
                    socket.close()
                default:
                    try? socket.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nabc")
                    socket.reset()
                }
            }
        }
        #expect(await server.countsReach { $0.connections == 0 && $0.eventStreams == 0 },
                "\(server.openConnectionCount) connections, \(server.openEventStreamCount) streams still open")
        #expect(try await get(port: port, "/hello").status == 200)
    }

    @Test("past the connection limit a client gets a quick JSON 503, and service resumes after")
    func connectionLimit() async throws {
        let hub = StreamHub()
        // No timeout before the hang guard: a refusal held until one would never come.
        let server = try startServer(limits: Limits(maxConnections: 5).withoutTimeouts) { request in
            if request.path == "/events" { return .eventStream { hub.add($0) } }
            return try await echoHandler(request)
        }
        defer { server.stop() }
        let port = server.port
        let readers = try await offPool { () -> [EventReader] in
            try (0..<5).map { _ in
                var (reader, _) = try EventReader.open(port: port)
                _ = try reader.nextBlock()
                return reader
            }
        }
        #expect(await hub.opened.wait(for: 5))
        // A refusal, never a hang until a timeout (there is none before the hang guard).
        let refused = try await get(port: port, "/hello")
        #expect(refused.status == 503)
        #expect(refused.json["error"] == "overloaded")
        readers.forEach { $0.socket.close() }
        #expect(await server.countsReach { $0.connections == 0 })
        #expect(try await get(port: port, "/hello").status == 200)
    }
}

/// Requests whose body length two parsers could read differently (request smuggling) are refused
/// in the JSON error shape, and whatever followed them never reaches the handler.
@Suite("Message framing")
struct FramingTests {
    /// Records every request the handler sees.
    final class Seen: Sendable {
        let paths = Mutex<[String]>([])
    }

    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test("ambiguous framing is a JSON 400/501 and the bytes after it are not a request", arguments: [
        ("Content-Length: 5\r\nContent-Length: 44\r\n", 400, "conflicting_content_length"),
        ("content-length: 0\r\nCONTENT-LENGTH: 44\r\n", 400, "conflicting_content_length"),
        ("Content-Length: 44\r\nTransfer-Encoding: chunked\r\n", 400, "ambiguous_framing"),
        ("Transfer-Encoding: chunked\r\nContent-Length: 0\r\n", 400, "ambiguous_framing"),
        ("Transfer-Encoding: CHUNKED\r\ncontent-length: 3\r\n", 400, "ambiguous_framing"),
        ("Transfer-Encoding: gzip\r\n", 501, "unsupported_transfer_encoding"),
        ("Transfer-Encoding: gzip, chunked\r\n", 501, "unsupported_transfer_encoding"),
    ])
    func ambiguous(fields: String, status: Int, code: String) async throws {
        let seen = Seen()
        let server = try startServer { request in
            seen.paths.withLock { $0.append(request.path) }
            return .text("ok")
        }
        defer { server.stop() }
        let port = server.port
        let raw = "POST /upload HTTP/1.1\r\nHost: t\r\n\(fields)\r\n0\r\n\r\n" + Self.smuggled
        let (responses, closed) = try await offPool { () -> ([HTTPResponse], Bool) in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send(raw)
            var reader = ResponseReader(socket)
            var responses = [try reader.readResponse()]
            // Every response until the server closes the connection (or the hang guard passes).
            while let next = try? reader.readResponse() { responses.append(next) }
            return (responses, reader.closed)
        }
        #expect(responses.first?.status == status)
        #expect(responses.first?.json["error"] == code)
        #expect(responses.first?.header("Content-Type") == "application/json")
        #expect(responses.count == 1 && closed, "the connection is closed after the refusal")
        #expect(seen.paths.withLock { $0 }.isEmpty, "neither request reached the handler")
        #expect(try await get(port: port, "/hello").status == 200)
    }

    @Test("repeated identical Content-Length and plain chunked bodies are still accepted")
    func unambiguous() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let same = try await exchange(port: server.port,
            "POST /echo HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc")
        #expect(same.status == 200)
        #expect(same.json["body"] == "abc")
        let chunked = try await exchange(port: server.port,
            "POST /echo HTTP/1.1\r\nHost: t\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
        #expect(chunked.status == 200)
        #expect(chunked.json["body"] == "abc")
    }
}
