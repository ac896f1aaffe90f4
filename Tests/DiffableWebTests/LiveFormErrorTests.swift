import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Without JavaScript a person posts a form and gets a page back: a refused action must say why
/// in HTML, with the way back to the demo, not answer with JSON the browser shows as text.
@Suite("Live: a refused form post without JavaScript answers an HTML page with the reason", .stopsLiveServers)
struct LiveFormErrorTests {
    @Test("a form post the server refuses shows its message and a link back to the demo; nothing changes")
    func refusedFormPost() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let before = try #require(live.app.sessionList(cookie: cookie, demo: "numbers")).dataSource.snapshot().itemIdentifiers
        let browser = ["Cookie": "dw_session=\(cookie)", "Content-Type": "application/x-www-form-urlencoded",
                       "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"]
        let refused = try await post(port: live.port, "/demos/numbers/actions/move", body: Array("from=1&to=99".utf8), headers: browser)
        #expect((400..<500).contains(refused.status))
        #expect(refused.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(refused.text.contains(#"<a class="back-link" href="/demos/numbers">Back to Numbers</a>"#))
        #expect(refused.text.contains("role=\"alert\""))
        #expect(try #require(live.app.sessionList(cookie: cookie, demo: "numbers")).dataSource.snapshot().itemIdentifiers == before)
        // A script posting the same form without asking for HTML still gets the JSON error.
        var script = browser
        script["Accept"] = "application/json"
        let json = try await post(port: live.port, "/demos/numbers/actions/move", body: Array("from=1&to=99".utf8), headers: script)
        #expect(json.status == refused.status)
        #expect(json.text.contains(#""error""#))
    }
}
