import Foundation
import HTTPTestSupport
import Synchronization
import Testing
@testable import DiffableWeb

/// Issue 15's findings against the web layer, over a real socket: each test failed before its fix.
@Suite("Live: hostile scripts cannot crash, bloat or confuse a list", .stopsLiveServers)
struct LiveHardeningTests {
    /// A new session's share id, from the API.
    static func share(_ live: LiveServer) async throws -> String {
        let created = try await live.postJSON("/api/sessions", "")
        return try #require(object(created)["id"] as? String)
    }

    static func numbers(_ live: LiveServer, _ id: String) async throws -> (version: Int, items: [String]) {
        let response = try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/snapshot")
        let body = object(response)
        let sections = body["sections"] as? [[String: Any]] ?? []
        let items = sections.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        return (body["version"] as? Int ?? -1, items)
    }

    static func healthy(_ live: LiveServer) async throws -> Bool {
        try await get(port: live.port, "/healthz").status == 200
    }

    // MARK: 1. Arithmetic on input

    @Test("the largest numbers a script can put in the list make append refuse cleanly, not trap",
          arguments: [
            (#"{"op":"appendItems","items":["n9007199254740991"]}"#, "{}"),
            (#"{"op":"appendItems","items":["n9007199254740991"]}"#, #"{"count":10000}"#),
            (#"{"op":"appendItems","items":["n9007199254740982"]}"#, #"{"count":10}"#),
            (#"{"op":"insertItems","items":["n9007199254740991"],"beforeItem":"n1"}"#, #"{"count":1}"#),
          ])
    func appendNearTheTop(operation: String, append: String) async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let put = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations", #"{"operations":[\#(operation)]}"#)
        #expect(put.status == 200, "\(put.text)")
        let before = try await Self.numbers(live, id)
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", append)
        #expect(response.status == 400)
        #expect(object(response)["error"] as? String == "invalid_parameter")
        #expect(try await Self.healthy(live))
        let after = try await Self.numbers(live, id)
        #expect(after.version == before.version && after.items == before.items)
        await live.stop()
    }

    @Test("one below the top still appends exactly the last number")
    func appendTheLastNumber() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        _ = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                    #"{"operations":[{"op":"appendItems","items":["n9007199254740990"]}]}"#)
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", "{}")
        #expect(response.status == 200)
        #expect(try await Self.numbers(live, id).items.last == "n9007199254740991")
        await live.stop()
    }

    @Test("only the canonical spelling of a number names an item",
          arguments: ["n007", "n+7", "n-3", "n0", "n", "n 7", "n7 ", "n９", "n9007199254740992", "n9223372036854775807",
                      "n99999999999999999999", "N7", "n0x7"])
    func nonCanonicalNumbers(_ item: String) async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let body = #"{"operations":[{"op":"appendItems","items":["\#(item)"]}]}"#
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations", body)
        #expect(response.status == 404)
        #expect(object(response)["error"] as? String == "unknown_item")
        let canonical = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                                #"{"operations":[{"op":"appendItems","items":["n7"]}]}"#)
        #expect(canonical.status == 200)
        await live.stop()
    }

    // MARK: 4. Documented limits, on every path

    /// A request that breaks one documented limit: (route, body).
    static func overLimit(_ what: String) -> (route: String, body: String) {
        switch what {
        case "1,001 operations":
            let one = #"{"op":"reloadItems","items":["n1"]}"#
            return ("operations", #"{"operations":[\#(Array(repeating: one, count: 1_001).joined(separator: ","))]}"#)
        case "20,001 identifiers in one operation":
            let ids = (1...20_001).map { "\"n\($0 + 10)\"" }.joined(separator: ",")
            return ("operations", #"{"operations":[{"op":"appendItems","items":[\#(ids)]}]}"#)
        case "a 201-character section id":
            return ("operations", #"{"operations":[{"op":"appendSections","sections":["\#(String(repeating: "é", count: 201))"]}]}"#)
        case "a 900 KB section id":
            return ("operations", #"{"operations":[{"op":"appendSections","sections":["\#(String(repeating: "s", count: 900_000))"]}]}"#)
        case "an empty item id":
            return ("operations", #"{"operations":[{"op":"moveItem","item":"","beforeItem":"n1"}]}"#)
        case "ifVersion -1 (operations)":
            return ("operations", #"{"operations":[],"ifVersion":-1}"#)
        case "ifVersion -1 (snapshot)":
            return ("snapshot", #"{"sections":[],"ifVersion":-1}"#)
        case "1,001 sections":
            return ("snapshot", #"{"sections":[\#((1...1_001).map { #"{"id":"s\#($0)","items":[]}"# }.joined(separator: ","))]}"#)
        default:  // "100,001 items in all"
            let sections = stride(from: 1, through: 100_001, by: 20_000).map { start -> String in
                let ids = (start..<min(start + 20_000, 100_002)).map { "\"n\($0)\"" }.joined(separator: ",")
                return #"{"id":"s\#(start)","items":[\#(ids)]}"#
            }
            return ("snapshot", #"{"sections":[\#(sections.joined(separator: ","))]}"#)
        }
    }

    @Test("every documented request limit is enforced, and nothing changes",
          arguments: ["1,001 operations", "20,001 identifiers in one operation", "a 201-character section id",
                      "a 900 KB section id", "an empty item id", "ifVersion -1 (operations)", "ifVersion -1 (snapshot)",
                      "1,001 sections", "100,001 items in all"])
    func requestLimits(_ what: String) async throws {
        let (route, body) = Self.overLimit(what)
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let before = try await Self.numbers(live, id)
        let path = "/api/sessions/\(id)/demos/numbers/\(route)"
        let response = try await live.send(route == "snapshot" ? "PUT" : "POST", path, json: body)
        #expect(response.status == 400, "\(what): \(response.status) \(response.text.prefix(200))")
        let code = object(response)["error"] as? String
        #expect(code == "limit_exceeded" || code == "invalid_version", "\(what): \(code ?? "-")")
        let after = try await Self.numbers(live, id)
        #expect(after.version == before.version && after.items == before.items)
        await live.stop()
    }

    // MARK: 9. Conformance of the web routes

    @Test("an empty operations batch changes nothing, not even the version")
    func emptyBatch() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let path = "/api/sessions/\(id)/demos/numbers/operations"
        let before = try await Self.numbers(live, id)
        let response = try await live.postJSON(path, #"{"operations":[]}"#)
        #expect(response.status == 200)
        #expect(object(response)["version"] as? Int == before.version)
        #expect(try await Self.numbers(live, id).version == before.version)
        let stale = try await live.postJSON(path, #"{"operations":[],"ifVersion":\#(before.version + 5)}"#)
        #expect(stale.status == 409)
        await live.stop()
    }

    @Test("a bad viewport is a 400 on pages and streams too, as on the layout route",
          arguments: ["width=0&height=800", "width=390&height=0", "width=-1&height=800", "width=abc&height=800",
                      "width=390", "height=800", "width=10001&height=800", "width=nan&height=800", "width=inf&height=800"])
    func badViewports(_ query: String) async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        for path in ["/demos/numbers", "/demos/numbers/events", "/api/sessions/\(id)/demos/numbers/events",
                     "/api/sessions/\(id)/demos/numbers/layout"] {
            let response = try await get(port: live.port, "\(path)?\(query)")
            #expect(response.status == 400, "\(path)?\(query) → \(response.status)")
            #expect(object(response)["error"] as? String == "invalid_viewport", "\(path)?\(query)")
        }
        await live.stop()
    }

    // MARK: 5. Session cost

    @Test("creating or describing a session opens none of its lists")
    func lazyLists() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let shareID = try #require(SessionID(id))
        let session = try #require(try await live.app.sessions.lookup(shareID: shareID))
        #expect(session.existingLists.isEmpty)
        let described = object(try await get(port: live.port, "/api/sessions/\(id)"))
        let demos = described["demos"] as? [[String: Any]] ?? []
        #expect(demos.compactMap { $0["name"] as? String } == live.app.demos.map(\.name) && demos.count >= 4
                && demos.allSatisfy { $0["opened"] as? Bool == false && $0["version"] as? Int == 1 })
        #expect(demos.first { $0["name"] as? String == "numbers" }?["itemCount"] as? Int == 5)
        #expect(session.existingLists.isEmpty)
        _ = try await Self.numbers(live, id)
        #expect(Array(session.existingLists.keys) == ["numbers"])
        let again = object(try await get(port: live.port, "/api/sessions/\(id)"))["demos"] as? [[String: Any]] ?? []
        #expect(again.first { $0["name"] as? String == "numbers" }?["opened"] as? Bool == true)
        await live.stop()
    }
}

/// Issue 15, findings 4 (starvation) and 8 (browser-facing headers, CSRF, cookies).
@Suite("Live: browsers get safe headers; other origins cannot drive a session; light requests are never starved", .stopsLiveServers)
struct LiveBrowserSafetyTests {
    static func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test("pages are never cached and carry a CSP without inline script; every response says nosniff")
    func headers() async throws {
        let live = try await LiveServer.start()
        let page = try await get(port: live.port, "/demos/numbers")
        #expect(Self.header(page, "Cache-Control") == "no-store")
        let csp = try #require(Self.header(page, "Content-Security-Policy"))
        #expect(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'") && csp.contains("object-src 'none'"))
        #expect(!csp.contains("unsafe-eval") && !csp.split(separator: ";").contains { $0.contains("script-src") && $0.contains("unsafe-inline") })
        #expect(Self.header(page, "X-Frame-Options") == "DENY")
        #expect(Self.header(page, "Referrer-Policy") == "same-origin")
        #expect(!page.text.contains("<script>") && !page.text.contains(" onclick="), "no inline script for the CSP to refuse")
        for path in ["/css/app.css", "/js/app.js", "/healthz", "/api/demos", "/openapi.json", "/nope"] {
            let response = try await get(port: live.port, path)
            #expect(Self.header(response, "X-Content-Type-Options") == "nosniff", "\(path)")
        }
        await live.stop()
    }

    @Test("a state-changing request from another origin is refused, and nothing changes",
          arguments: [("Origin", "http://127.0.0.1:9999"), ("Origin", "null"), ("Origin", "http://test.evil"),
                      ("Sec-Fetch-Site", "same-site"), ("Sec-Fetch-Site", "cross-site")])
    func crossOriginRefused(header: String, value: String) async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let id = try await LiveHardeningTests.share(live)
        let hostile = ["Cookie": "dw_session=\(cookie)", header: value]
        let form = ["Content-Type": "application/x-www-form-urlencoded"].merging(hostile) { $1 }
        let json = ["Content-Type": "application/json"].merging(hostile) { $1 }
        let attempts: [(String, [UInt8], [String: String])] = [
            ("/demos/numbers/actions/append", Array("count=3".utf8), form),
            ("/demos/numbers/actions/append", Array("{}".utf8), json),
            ("/demos/numbers/viewport", Array("width=300&height=300".utf8), form),
            ("/api/sessions/\(id)/demos/numbers/operations", Array(#"{"operations":[{"op":"deleteAllItems"}]}"#.utf8), json),
            ("/api/sessions", [], json),
        ]
        let sessionsBefore = live.app.sessionCount
        for (path, body, headers) in attempts {
            let response = try await post(port: live.port, path, body: body, headers: headers)
            #expect(response.status == 403, "\(path) with \(header): \(value)")
            #expect(object(response)["error"] as? String == "cross_origin")
        }
        #expect(live.app.sessionCount == sessionsBefore)
        let visitorID = try #require(SessionID(cookie))
        let visitor = try #require(live.app.sessions.existing(visitorID))
        #expect(visitor.existingList(named: "numbers")?.dataSource.snapshot().numberOfItems == 5)
        #expect(try await LiveHardeningTests.numbers(live, id).items.count == 5)
        // The page itself (same origin), and scripts (no browser headers), are served.
        let own = try await post(port: live.port, "/demos/numbers/actions/append", body: Array("{}".utf8),
                                 headers: ["Content-Type": "application/json", "Cookie": "dw_session=\(cookie)",
                                           "Origin": "http://test", "Sec-Fetch-Site": "same-origin"])
        #expect(own.status == 200)
        let script = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", "{}")
        #expect(script.status == 200)
        await live.stop()
    }

    @Test("the session cookie is Secure as configured", arguments: CookieSecurity.allCases)
    func secureCookies(_ security: CookieSecurity) async throws {
        let live = try await LiveServer.start { $0.secureCookies = security }
        let plain = try await get(port: live.port, "/demos/numbers")
        let proxied = try await get(port: live.port, "/demos/numbers", headers: ["X-Forwarded-Proto": "https"])
        let secure = { (response: HTTPResponse) in Self.header(response, "Set-Cookie")?.contains("; Secure") == true }
        #expect(secure(plain) == (security == .on))
        #expect(secure(proxied) == (security != .off))
        #expect(Self.header(plain, "Set-Cookie")?.contains("HttpOnly") == true)
        await live.stop()
    }
}


/// The two tests that build the largest list there is (100,000 items) and load the server on
/// purpose: `make test` runs them in a phase of their own, so their load never meets another
/// suite's time-outs on a 2-core machine.
@Suite("Live heavy: list size cap, and no starvation under load", .serialized, .stopsLiveServers)
struct LiveHeavyTests {
    /// Numbers `n1`…`n100000` in the session's numbers list, through the API.
    static func fill(_ live: LiveServer, _ id: String) async throws {
        let path = "/api/sessions/\(id)/demos/numbers/operations"
        _ = try await live.postJSON(path, #"{"operations":[{"op":"deleteAllItems"},{"op":"appendSections","sections":["numbers"]}]}"#)
        for batch in 0..<5 {
            let ids = (1...20_000).map { "\"n\(batch * 20_000 + $0)\"" }.joined(separator: ",")
            let response = try await live.postJSON(path, #"{"operations":[{"op":"appendItems","items":[\#(ids)]}]}"#)
            #expect(response.status == 200)
        }
    }

    @Test("operations cannot grow a list past 100,000 items, however many batches")
    func listSizeCap() async throws {
        let live = try await LiveServer.start()
        let id = try await LiveHardeningTests.share(live)
        let path = "/api/sessions/\(id)/demos/numbers/operations"
        try await Self.fill(live, id)
        let full = try await LiveHardeningTests.numbers(live, id)
        #expect(full.items.count == 100_000)
        let over = try await live.postJSON(path, #"{"operations":[{"op":"appendItems","items":["n100001"]}]}"#)
        #expect(over.status == 422)
        #expect(object(over)["error"] as? String == "list_too_large")
        let append = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", "{}")
        #expect(append.status == 422)
        #expect(object(append)["error"] as? String == "list_too_large")
        let after = try await LiveHardeningTests.numbers(live, id)
        #expect(after.version == full.version && after.items.count == 100_000)
        await live.stop()
    }

    @Test("/healthz and static files answer promptly while four large layout requests run")
    func lightRequestsAreNotStarved() async throws {
        let live = try await LiveServer.start()
        let id = try await LiveHardeningTests.share(live)
        try await Self.fill(live, id)
        let port = live.port
        let probing = Flag()
        let heavy = (0..<4).map { _ in
            Task.detached { () -> Int in
                var done = 0
                repeat {  // until the probes are done, at least once
                    let response = try await get(port: port, "/api/sessions/\(id)/demos/numbers/layout?width=390&height=844")
                    if response.status == 200 { done += 1 }
                } while probing.isSet
                return done
            }
        }
        let heavyWork = live.app.heavyWork
        #expect(await eventually("the first heavy layouts start on the heavy-work threads") { heavyWork.runningCount > 0 })
        // Probes measured on their own thread, so the test's own tasks cannot skew them.
        let latencies = try await offPool { () -> [Duration] in
            var latencies: [Duration] = []
            for index in 0..<200 {
                let start = ContinuousClock.now
                let raw = "GET \(index % 2 == 0 ? "/healthz" : "/css/app.css") HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
                let socket = try TestSocket.connect(port: port)
                defer { socket.close() }
                try socket.send(raw)
                var reader = ResponseReader(socket)
                let response = try reader.readResponse()
                guard response.status == 200 else { throw ClientError("probe answered \(response.status)") }
                latencies.append(ContinuousClock.now - start)
                Thread.sleep(forTimeInterval: 0.005)
            }
            return latencies
        }
        probing.clear()
        var completed: [Int] = []
        for task in heavy { completed.append(try await task.value) }
        #expect(completed.allSatisfy { $0 >= 1 }, "the heavy requests themselves succeed: \(completed)")
        let sorted = latencies.sorted()
        let p99 = sorted[Int(Double(sorted.count) * 0.99) - 1]
        // Before: /healthz queued behind the heavy handlers for seconds. The target (50 ms) is
        // measured in BENCHMARKS.md; this bound only catches starvation, not a slow machine.
        #expect(p99 < .milliseconds(250), "p99 \(p99)")
        print("light requests under 4 heavy layout requests: p50 \(sorted[sorted.count / 2]), p99 \(p99)")
        await live.stop()
    }
}

/// A flag shared with detached tasks.
private final class Flag: Sendable {
    private let state = Atomic(true)
    var isSet: Bool { state.load(ordering: .relaxed) }
    func clear() { state.store(false, ordering: .relaxed) }
}
