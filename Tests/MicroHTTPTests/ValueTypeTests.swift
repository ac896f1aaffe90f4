import Foundation
import MicroHTTP
import Testing
import HTTPTestSupport

@Suite("Value types")
struct ValueTypeTests {
    @Test("header names compare case-insensitively; setting replaces, nil removes")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Set-Cookie": "a=1"]
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-TYPE"] == "text/plain")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        headers["SET-COOKIE"] = "c=3"
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        headers["content-type"] = nil
        #expect(!headers.contains("Content-Type"))
    }

    @Test("Request(target:) decodes path and query like the server does")
    func requestTarget() {
        let request = Request(target: "/a%20b?q=x+y&z=%E2%9C%93&flag", headers: ["Cookie": "sid=1; t=2"])
        #expect(request.path == "/a b")
        #expect(request.query["q"] == "x y")
        #expect(request.query["z"] == "✓")
        #expect(request.query["flag"] == "")
        #expect(request.query["missing"] == nil)
        #expect(request.cookies["t"] == "2")
    }

    @Test("Set-Cookie drops characters that could inject attributes or header lines")
    func setCookieFiltering() {
        let cookie = SetCookie(name: "s id;", value: "v; Path=/evil\r\nX-Injected: 1", path: "/", httpOnly: true, sameSite: .lax)
        #expect(cookie.headerValue == "sid=vPath=/evilX-Injected:1; Path=/; HttpOnly; SameSite=Lax")
        #expect(SetCookie.expired(name: "sid").headerValue.contains("Max-Age=0"))
    }

    @Test("HTTPError renders one JSON shape with a default code from the status")
    func httpErrorShape() throws {
        let response = HTTPError(.notFound, message: "No \"list\"").response
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"] == "application/json")
        guard case .bytes(let body) = response.body else { Issue.record("not bytes"); return }
        #expect(String(decoding: body, as: UTF8.self) == #"{"error":"not_found","message":"No \"list\""}"#)
        #expect(HTTPError(.payloadTooLarge).code == "payload_too_large")
        #expect(HTTPError(.methodNotAllowed).code == "method_not_allowed")
    }

    @Test("media types come from the extension, case-insensitively", arguments: [
        ("a/b/app.JS", "text/javascript; charset=utf-8"), ("x.woff2", "font/woff2"),
        ("noext", "application/octet-stream"), ("dir.d/file", "application/octet-stream"),
    ])
    func mediaTypes(path: String, type: String) {
        #expect(MediaType.forPath(path) == type)
    }
}
