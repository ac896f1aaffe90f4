import Synchronization
import Foundation
import MicroHTTP
import Testing
import HTTPTestSupport

/// Answers with what it saw, as JSON, so tests can check the parsing end to end.
let echoHandler: HTTPServer.Handler = { request in
    switch request.path {
    case "/hello":
        return .text("hello")
    case "/only-get":
        guard request.method == .get else {
            return HTTPError(.methodNotAllowed, headers: ["Allow": "GET"]).response
        }
        return .text("ok")
    case "/throws-http-error":
        throw HTTPError(.conflict, code: "version_conflict", message: "stale version")
    case "/throws-other":
        struct Oops: Error {}
        throw Oops()
    case "/cookie":
        var response = Response.text("set")
        response.setCookie(SetCookie(name: "sid", value: "abc123", maxAge: 60))
        response.setCookie(SetCookie(name: "theme", value: "dark", httpOnly: false, sameSite: .strict))
        return response
    case "/redirect":
        return .redirect(to: "/hello")
    default:
        guard request.path.hasPrefix("/echo") else { return HTTPError(.notFound, message: "No route for \(request.path)").response }
        var fields: [String: String] = [
            "method": request.method.rawValue,
            "path": request.path,
            "rawPath": request.rawPath,
            "bodyCount": "\(request.body.count)",
            "body": request.bodyText,
            "segments": request.pathSegments.joined(separator: "|"),
        ]
        for item in request.queryItems { fields["q." + item.name] = item.value ?? "<nil>" }
        fields["header.x-test"] = request.headers["x-TEST"]
        fields["lastEventID"] = request.lastEventID
        fields["cookie.sid"] = request.cookies["sid"]
        fields["cookie.theme"] = request.cookies["theme"]
        return .json(fields)
    }
}

@Suite("Requests and responses")
struct RequestTests {
    @Test("a GET is answered with the handler's status, headers and body")
    func plainGet() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let response = try await get(port: server.port, "/hello")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.text == "hello")
    }

    @Test("query items are percent- and plus-decoded, a bare name has no value, bad escapes stay")
    func queryDecoding() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let json = try await get(port: server.port, "/echo?q=a%20b+c&check=%E2%9C%93&flag&bad=%zz&plus=%2B").json
        #expect(json["q.q"] == "a b c")
        #expect(json["q.check"] == "✓")
        #expect(json["q.flag"] == "<nil>")
        #expect(json["q.bad"] == "%zz")
        #expect(json["q.plus"] == "+")
    }

    @Test("the path is percent-decoded while rawPath and pathSegments keep an encoded slash apart")
    func pathDecoding() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let json = try await get(port: server.port, "/echo/a%20b/c%2Fd").json
        #expect(json["path"] == "/echo/a b/c/d")
        #expect(json["rawPath"] == "/echo/a%20b/c%2Fd")
        #expect(json["segments"] == "echo|a b|c/d")
    }

    @Test("header lookup ignores case, and Last-Event-ID reaches the handler")
    func headers() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let json = try await get(port: server.port, "/echo", headers: ["X-Test": "yes", "last-event-id": "41"]).json
        #expect(json["header.x-test"] == "yes")
        #expect(json["lastEventID"] == "41")
    }

    @Test("cookies are read from the Cookie header")
    func cookies() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let json = try await get(port: server.port, "/echo", headers: ["Cookie": "theme=\"dark\"; sid=s3cr3t; junk"]).json
        #expect(json["cookie.sid"] == "s3cr3t")
        #expect(json["cookie.theme"] == "dark")
    }

    @Test("cookie names and values are trimmed of spaces and tabs, and of Unicode spaces as Foundation trims them")
    func cookieTrimming() {
        let cookies = Cookies(header: [" sid = s3cr3t ;\ttheme=\t\"dark\"\t; a=b", "\u{00A0}wide=\u{00A0}ü\u{2003}; empty= "])
        #expect(cookies["sid"] == "s3cr3t")
        #expect(cookies["theme"] == "dark")
        #expect(cookies["a"] == "b")
        #expect(cookies["wide"] == "ü")
        #expect(cookies["empty"] == "")
    }

    @Test("several Set-Cookie headers go out with their attributes")
    func setCookies() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let response = try await get(port: server.port, "/cookie")
        let cookies = response.headers.filter { $0.0.lowercased() == "set-cookie" }.map(\.1)
        #expect(cookies == [
            "sid=abc123; Path=/; Max-Age=60; HttpOnly; SameSite=Lax",
            "theme=dark; Path=/; SameSite=Strict",
        ])
    }

    @Test("a body exactly at the limit is delivered whole")
    func bodyAtLimit() async throws {
        let server = try startServer(limits: Limits(maxBodyBytes: 1024), handler: echoHandler)
        defer { server.stop() }
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1024)
        let response = try await post(port: server.port, "/echo", body: body)
        #expect(response.status == 200)
        #expect(response.json["bodyCount"] == "1024")
        #expect(response.json["method"] == "POST")
    }

    @Test("a declared body over the limit gets 413 at once, without the body being sent")
    func declaredBodyOverLimit() async throws {
        // No timeout or deadline ends the connection before the hang guard: a server that waited
        // for the body would never answer, so any answer proves it did not wait.
        let server = try startServer(limits: Limits(maxBodyBytes: 1024).withoutTimeouts, handler: echoHandler)
        defer { server.stop() }
        let response = try await exchange(port: server.port, "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\n\r\n")
        #expect(response.status == 413)
        #expect(response.json["error"] == "payload_too_large")
    }

    @Test("a chunked body that grows past the limit gets 413")
    func chunkedBodyOverLimit() async throws {
        let server = try startServer(limits: Limits(maxBodyBytes: 1024), handler: echoHandler)
        defer { server.stop() }
        let chunk = String(repeating: "y", count: 800)
        let raw = "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n"
        let response = try await exchange(port: server.port, raw)
        #expect(response.status == 413)
        #expect(response.json["error"] == "payload_too_large")
    }

    @Test("a chunked body far past the limit is cut off: the connection closes, memory stays flat")
    func chunkedBodyFarOverLimit() async throws {
        // No timeout before the hang guard: the answer or the close is the cut's.
        let server = try startServer(limits: Limits(maxBodyBytes: 1024).withoutTimeouts, handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let closed = try await offPool { () -> Bool in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            try socket.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "8000\r\n" + String(repeating: "z", count: 0x8000) + "\r\n"
            for _ in 0..<64 { guard (try? socket.send(chunk)) != nil else { break } }  // 2 MiB offered
            var reader = ResponseReader(socket)
            if let response = try? reader.readResponse() { return response.status == 413 }
            return reader.closed
        }
        #expect(closed)
        #expect(try await get(port: port, "/hello").status == 200)
    }

    @Test("bodies being read share one budget: past it a body is refused 503 server_busy; a body handed over gives its bytes back")
    func bodiesShareABudget() async throws {
        var limits = Limits(maxBodyBytes: 64 * 1024).withoutTimeouts
        limits.maxRequestBodyTotalBytes = 64 * 1024
        let server = try startServer(limits: limits, handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        // A slow upload: 40 KiB of its 48 KiB sent, the rest held back.
        let slow = try await offPool { () -> TestSocket in
            let socket = try TestSocket.connect(port: port)
            try socket.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(48 * 1024)\r\n\r\n" + String(repeating: "a", count: 40 * 1024))
            return socket
        }
        defer { slow.close() }
        #expect(await eventually("the slow upload's bytes are read (libmicrohttpd hands them over as they come)") {
            server.requestBodyBytes >= 32 * 1024
        })
        // 40 KiB more would pass the 64 KiB all bodies may hold: refused, and nothing kept.
        let refused = try await post(port: port, "/echo", body: [UInt8](repeating: 98, count: 40 * 1024))
        #expect(refused.status == 503)
        #expect(refused.json["error"] == "server_busy")
        #expect(refused.header("Retry-After") == "1")
        #expect(server.requestBodyBytes <= 48 * 1024)
        // The slow upload completes: its body is handed over whole, and its bytes given back.
        let finished = try await offPool { () -> HTTPResponse in
            try slow.send(String(repeating: "a", count: 8 * 1024))
            var reader = ResponseReader(slow)
            return try reader.readResponse()
        }
        #expect(finished.status == 200)
        #expect(finished.json["bodyCount"] == "\(48 * 1024)")
        #expect(server.requestBodyBytes == 0)
        let again = try await post(port: port, "/echo", body: [UInt8](repeating: 98, count: 40 * 1024))
        #expect(again.status == 200)
        #expect(server.requestBodyBytes == 0)
    }

    @Test("an unknown path gets the JSON 404 shape")
    func notFound() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let response = try await get(port: server.port, "/nope")
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.json == ["error": "not_found", "message": "No route for /nope"])
    }

    @Test("a wrong method gets 405 with Allow")
    func methodNotAllowed() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let response = try await post(port: server.port, "/only-get", body: [])
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET")
        #expect(response.json["error"] == "method_not_allowed")
    }

    @Test("a thrown HTTPError becomes its JSON response; any other error a JSON 500")
    func thrownErrors() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let conflict = try await get(port: server.port, "/throws-http-error")
        #expect(conflict.status == 409)
        #expect(conflict.json == ["error": "version_conflict", "message": "stale version"])
        let failure = try await get(port: server.port, "/throws-other")
        #expect(failure.status == 500)
        #expect(failure.json["error"] == "internal_error")
    }

    @Test("keep-alive serves several requests on one connection")
    func keepAlive() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let port = server.port
        let bodies = try await offPool { () -> [String] in
            let socket = try TestSocket.connect(port: port)
            defer { socket.close() }
            var reader = ResponseReader(socket)
            var bodies: [String] = []
            for i in 0..<3 {
                try socket.send("GET /echo?i=\(i) HTTP/1.1\r\nHost: t\r\n\r\n")
                bodies.append(try reader.readResponse().json["q.i"] ?? "")
            }
            return bodies
        }
        #expect(bodies == ["0", "1", "2"])
    }

    @Test("a handler that awaits does not hold up other requests")
    func slowHandlerDoesNotBlock() async throws {
        // The slow handler waits on a gate that opens only after the fast request has been
        // answered: if handlers were serialized, the fast request could never complete.
        let gate = Gate()
        let server = try startServer { request in
            if request.path == "/wait" {
                await gate.wait()
                return .text("slow")
            }
            return try await echoHandler(request)
        }
        defer { server.stop() }
        let port = server.port
        async let slow = get(port: port, "/wait")
        #expect(await gate.arrivals.wait(for: 1), "the slow handler waits at the gate")
        let fast = try await get(port: port, "/hello")
        #expect(fast.text == "hello")
        #expect(gate.isWaiting, "the slow handler is still in flight")
        gate.open()
        #expect(try await slow.text == "slow")
    }

    @Test("HEAD gets the headers without a body; a redirect is a 303 with Location")
    func headAndRedirect() async throws {
        let server = try startServer(handler: echoHandler)
        defer { server.stop() }
        let head = try await exchange(port: server.port, "HEAD /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", head: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5")
        let redirect = try await get(port: server.port, "/redirect")
        #expect(redirect.status == 303)
        #expect(redirect.header("Location") == "/hello")
    }
}

