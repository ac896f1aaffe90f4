import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

@Suite("Web: pages, sessions, actions and errors")
struct WebAppTests {
    @Test("the first visit gets an HttpOnly, SameSite=Lax session cookie; later visits keep it")
    func sessionCookie() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let first = await visitor.send(.get, "/")
        #expect(first.status == .ok)
        let header = first.headers.values(for: "Set-Cookie").first ?? ""
        #expect(header.contains("HttpOnly") && header.contains("SameSite=Lax") && header.contains("Path=/"))
        #expect(visitor.cookie?.count == 32)
        let second = await visitor.send(.get, "/demos/mountains")
        #expect(second.sessionCookie == nil, "an existing session is kept")
    }

    @Test("a forged or malformed session cookie gets a fresh session, never someone else's",
          arguments: ["0123456789abcdef0123456789abcdef", "../../etc", "", String(repeating: "z", count: 32)])
    func forgedCookie(cookie: String) async throws {
        let app = try await makeApp()
        let owner = Visitor(app)
        await owner.send(.post, "/demos/numbers/actions/append", json: #"{"count":3}"#)
        let intruder = Visitor(app)
        intruder.cookie = cookie
        let response = await intruder.send(.get, "/demos/numbers")
        #expect(response.sessionCookie != nil && response.sessionCookie != owner.cookie)
        #expect(intruder.list("numbers")?.dataSource.snapshot().numberOfItems == 5, "a fresh list, not the owner's 8 items")
    }

    @Test("sessions never see each other's data")
    func isolation() async throws {
        let app = try await makeApp()
        let alice = Visitor(app), bob = Visitor(app)
        await alice.send(.post, "/demos/mountains/actions/search", json: #"{"query":"everest"}"#)
        await bob.send(.get, "/demos/mountains")
        #expect(alice.list("mountains")?.dataSource.snapshot().numberOfItems != bob.list("mountains")?.dataSource.snapshot().numberOfItems)
        #expect(bob.list("mountains")?.dataSource.snapshot().numberOfItems == 1_467)
    }

    @Test("search runs performQuery: names containing the text, case-insensitive, sorted by name")
    func search() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let response = await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"PEAK","seq":1}"#)
        #expect(response.status == .ok)
        #expect(response.json?["version"] as? Int == 2)
        let catalog = try MountainCatalog.bundled()
        let expected = catalog.mountains.filter { $0.name.lowercased().contains("peak") }.sorted { $0.name < $1.name }.map(\.id)
        #expect(!expected.isEmpty)
        #expect(visitor.list("mountains")?.dataSource.snapshot().itemIdentifiers == expected)
    }

    @Test("the last keystroke wins: an older seq from the same client is ignored")
    func lastKeystrokeWins() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let catalog = try MountainCatalog.bundled()
        // The stale query must show something else than the newest, or ignoring it proves nothing.
        let newest = catalog.filtered(by: "everest").map(\.id), stale = catalog.filtered(by: "mont").map(\.id)
        #expect(!newest.isEmpty && newest != stale)
        await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"everest","seq":5,"client":"tab1"}"#)
        let version = visitor.list("mountains")?.version
        let ignored = await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"mont","seq":4,"client":"tab1"}"#)
        #expect(ignored.status == .ok)
        #expect(visitor.list("mountains")?.dataSource.snapshot().itemIdentifiers == newest)
        #expect(visitor.list("mountains")?.version == version, "nothing applied")
        // Another client's seq is its own: its older number still applies.
        await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"mont","seq":1,"client":"tab2"}"#)
        #expect(visitor.list("mountains")?.dataSource.snapshot().itemIdentifiers == stale)
    }

    @Test("numbers: append ×3, remove center, remove last")
    func numbers() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        for _ in 0..<3 { await visitor.send(.post, "/demos/numbers/actions/append", json: "{}") }
        await visitor.send(.post, "/demos/numbers/actions/removeCenter", json: "{}")
        await visitor.send(.post, "/demos/numbers/actions/removeLast", json: "{}")
        #expect(visitor.list("numbers")?.dataSource.snapshot().itemIdentifiers == ["n1", "n2", "n3", "n4", "n6", "n7"],
                "8 items: remove center takes index 4 (n5), remove last takes n8")
    }

    @Test("a Numbers action keeps what a script changed with snapshot operations: the snapshot is the source of truth")
    func actionsKeepScriptChanges() async throws {
        let app = try await makeApp()
        let created = await app.handle(Request(method: .post, target: "/api/sessions"))
        let id = try #require(created.json?["id"] as? String)
        let operations = #"{"operations":[{"op":"moveItem","item":"n5","beforeItem":"n1"},{"op":"deleteItems","items":["n2"]}]}"#
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers["Accept"] = "application/json"
        _ = await app.handle(Request(method: .post, target: "/api/sessions/\(id)/demos/numbers/operations", headers: headers, body: Array(operations.utf8)))
        for (action, body) in [("append", "{}"), ("removeCenter", "{}"), ("move", #"{"from":0,"to":3}"#)] {
            let response = await app.handle(Request(method: .post, target: "/api/sessions/\(id)/demos/numbers/actions/\(action)", headers: headers, body: Array(body.utf8)))
            #expect(response.status == .ok, "\(action): \(response.text)")
        }
        let snapshot = await app.handle(Request(method: .get, target: "/api/sessions/\(id)/demos/numbers/snapshot"))
        let items = ((snapshot.json?["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        // [n5 n1 n3 n4] → append n6 → remove center (n3) → move n5 from 0 to 3
        #expect(items == ["n1", "n4", "n6", "n5"])
    }

    @Test("without JavaScript: the search form filters by GET ?q=, and buttons POST a form and redirect")
    func noJavaScript() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let page = await visitor.send(.get, "/demos/mountains?q=k2")
        #expect(page.status == .ok)
        #expect(page.text.contains(">K2<"))
        #expect(page.text.contains(#"value="k2""#))
        #expect(page.text.contains(#"data-preview-action="search""#), "the client makes the view real with its own POST")
        #expect(visitor.list("mountains")?.dataSource.snapshot().numberOfItems == 1_467, "a GET writes nothing")
        #expect(visitor.list("mountains")?.demo.pageValues()["query"] == "")
        let redirect = await visitor.send(.post, "/demos/numbers/actions/append", form: "count=2")
        #expect(redirect.status == .seeOther)
        #expect(redirect.headers["Location"] == "/demos/numbers")
        #expect(visitor.list("numbers")?.dataSource.snapshot().numberOfItems == 7)
    }

    @Test("the demo page has the first screen of cells, positioned at their frames")
    func firstScreen() async throws {
        let app = try await makeApp()
        let page = await Visitor(app).send(.get, "/demos/mountains?width=390&height=844")
        let cells = page.text.components(separatedBy: #"role="listitem""#).count - 1
        // 390 wide: 1 column (a phone); rows every 54 px from y = 10; the first 1.5 screens (1266 px) hold 24 rows.
        #expect(cells == 24)
        #expect(page.text.contains(#"data-frame="10,10,370,44""#), "390 − 2·10 = 370")
    }

    @Test("without JavaScript the whole list reads page by page, 100 items a page")
    func noJavaScriptPaging() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: #"{"count":245}"#)  // n1…n250
        let last = await visitor.send(.get, "/demos/numbers?page=3")
        #expect(last.text.contains(#"<ol class="fallback-list" start="201">"#))
        #expect(last.text.contains(#"class="label">Item 250</span>"#) && !last.text.contains(#"class="label">Item 200</span>"#))
        #expect(last.text.contains("Page 3 of 3") && last.text.contains(#"href="/demos/numbers?page=2""#) && !last.text.contains(#"rel="next""#))
        let first = await visitor.send(.get, "/demos/numbers")
        #expect(first.text.contains(#"class="label">Item 100</span>"#) && !first.text.contains(#"class="label">Item 101</span>"#))
        #expect(first.text.contains(#"rel="next" href="/demos/numbers?page=2""#))
        let beyond = await visitor.send(.get, "/demos/numbers?page=99")
        #expect(beyond.text.contains("Page 3 of 3"), "past the end: the last page")
        let bad = await visitor.send(.get, "/demos/numbers?page=0")
        #expect(bad.status == .badRequest)
        let search = await visitor.send(.get, "/demos/mountains?q=a&page=2")
        #expect(search.text.contains(#"href="/demos/mountains?q=a&amp;page=1""#), "the query is kept across pages")
    }

    @Test("HTML in user text is escaped everywhere")
    func escaping() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let page = await visitor.send(.get, "/demos/mountains?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22'")
        #expect(!page.text.contains("<script>alert(1)"))
        #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.text.contains("No mountains match “&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!page.text.contains("data-preview-body=\"{\"query\":\"<"), "the preview's JSON is escaped in its attribute")
        let search = await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"<script>alert(1)</script>\"'"}"#)
        #expect(search.status == .ok)
        let status = visitor.list("mountains").map { $0.demo.status(of: $0.dataSource.snapshot()) }
        #expect(status == "No mountains match “<script>alert(1)</script>\"'”", "raw in JSON; the client sets it as text")
    }

    @Test("bad input gets the right status and a JSON error",
          arguments: [
            ("GET", "/demos/nope", nil, 404, "unknown_demo"),
            ("DELETE", "/demos/mountains", nil, 405, "method_not_allowed"),
            ("GET", "/demos/mountains/actions/search", nil, 405, "method_not_allowed"),
            ("POST", "/demos/mountains/actions/fly", "{}", 404, "unknown_action"),
            ("POST", "/demos/mountains/actions/search", "{not json", 400, "malformed_json"),
            ("POST", "/demos/mountains/actions/search", #"{"query":["a"]}"#, 400, "malformed_json"),
            ("POST", "/demos/numbers/actions/append", #"{"count":0}"#, 400, "invalid_parameter"),
            ("POST", "/demos/numbers/actions/append", #"{"count":"many"}"#, 400, "invalid_parameter"),
            ("POST", "/demos/numbers/actions/move", #"{"from":0}"#, 400, "missing_parameter"),
            ("POST", "/demos/numbers/actions/append", #"{"seq":"x"}"#, 400, "invalid_parameter"),
            ("POST", "/demos/numbers/viewport", #"{"width":-5,"height":10}"#, 400, "invalid_viewport"),
            ("GET", "/no/such/path", nil, 404, "not_found"),
          ] as [(String, String, String?, Int, String)])
    func badInput(method: String, target: String, body: String?, status: Int, code: String) async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let response = await visitor.send(HTTPMethod(method), target, json: body)
        #expect(response.status.code == status)
        #expect(response.json?["error"] as? String == code)
        #expect((response.json?["message"] as? String)?.isEmpty == false)
        if status == 405 { #expect(response.headers["Allow"] != nil) }
    }

    @Test("a body that is neither JSON nor a form is 415")
    func unsupportedMediaType() async throws {
        let app = try await makeApp()
        let response = await Visitor(app).send(.post, "/demos/numbers/actions/append", headers: ["Content-Type": "text/plain"])
        #expect(response.status == .ok, "an empty body needs no type")
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers["X"] = "1"
        let typed = await app.handle(Request(method: .post, target: "/demos/numbers/actions/append", headers: headers, body: Array("count=1".utf8)))
        #expect(typed.status == .unsupportedMediaType)
    }

    @Test("a browser asking for an unknown demo gets an HTML 404 page")
    func notFoundPage() async throws {
        let app = try await makeApp()
        let response = await Visitor(app).send(.get, "/demos/nope", headers: ["Accept": "text/html"])
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(response.text.contains("There is no demo named “nope”"))
    }

    @Test("sessions are bounded: the one idle the longest is evicted")
    func boundedSessions() async throws {
        let app = try await makeApp { $0.maximumSessions = 3 }
        let visitors = (0..<5).map { _ in Visitor(app) }
        for visitor in visitors {
            await visitor.send(.get, "/")  // each the newest: the order is the order of visits
        }
        #expect(app.sessionCount == 3)
        #expect(visitors[0].list("numbers") == nil && app.sessions.existing(SessionID(visitors[0].cookie!)!) == nil)
        #expect(app.sessions.existing(SessionID(visitors[4].cookie!)!) != nil)
    }

    @Test("idle sessions expire")
    func expiry() async throws {
        let app = try await makeApp { $0.sessionIdleTimeout = .seconds(60) }
        await Visitor(app).send(.get, "/")
        #expect(app.sessions.sweep(now: .now + .seconds(30)) == 0)
        #expect(app.sessions.sweep(now: .now + .seconds(61)) == 1)
        #expect(app.sessionCount == 0)
    }
}
