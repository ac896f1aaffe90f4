import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Issue 20, "controls that lie" and "failures nobody sees", on the server's side: what the
/// stream tells a page (a header's count, the content size after a resize, the list's view
/// state) and what the page offers (forms that can work, commands that name this server).
@Suite("Live controls: the stream and the page tell the list's real state", .stopsLiveServers)
struct LiveControlsTests {
    /// The `updated` entries of a changeset, by id.
    func updated(_ event: SSEEvent) -> [String: String] {
        var html: [String: String] = [:]
        for entry in event.json["updated"] as? [[String: Any]] ?? [] {
            if let id = entry["id"] as? String { html[id] = entry["html"] as? String ?? "" }
        }
        return html
    }

    @Test("the first change after a stream opens updates the header's count (whether or not the list changed before)",
          arguments: [false, true])
    func headerCountOnFirstChange(changedBefore: Bool) async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        var count = 5
        if changedBefore {
            #expect(try await live.postJSON("/demos/numbers/actions/append", #"{"seq":1}"#, cookie: cookie).status == 200)
            count += 1
        }
        var stream = try await live.events("/demos/numbers/events?width=600&height=800", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        #expect(try await live.postJSON("/demos/numbers/actions/append", #"{"seq":2}"#, cookie: cookie).status == 200)
        let first = try await next(&stream)
        #expect(first.name == "changeset")
        #expect(updated(first)["header:numbers"]?.contains("\(count + 1) items") == true, "\(first.data)")
        #expect(try await live.postJSON("/demos/numbers/actions/append", #"{"seq":3}"#, cookie: cookie).status == 200)
        let second = try await next(&stream)
        #expect(updated(second)["header:numbers"]?.contains("\(count + 2) items") == true, "\(second.data)")
        stream.socket.close()
    }

    @Test("a resize that changes no held cell still sends a window event with the new content size")
    func resizePastTheEnd() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/mountains")
        // Scrolled far past the end: the window holds no cell at either width.
        var stream = try await live.events("/demos/mountains/events?width=1024&height=800&top=200000", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamID = try #require(snapshot.json["stream"] as? String)
        let before = try #require((snapshot.json["contentSize"] as? [String: Any])?["h"] as? Double)
        #expect((snapshot.json["cells"] as? [Any])?.isEmpty == true)
        let moved = try await live.postJSON("/demos/mountains/viewport",
                                            #"{"stream":"\#(streamID)","width":320,"height":800,"top":200000}"#, cookie: cookie)
        #expect(moved.status == 204)
        let window = try await next(&stream)
        #expect(window.name == "window")
        let after = try #require((window.json["contentSize"] as? [String: Any])?["h"] as? Double)
        #expect(after > before * 1.3, "one column instead of three: \(before) → \(after)")
        let expected = try #require(live.app.sessionList(cookie: cookie, demo: "mountains"))
            .layout(for: .init(width: 320, height: 800)).contentSize.height
        #expect(abs(after - expected) < 1)
        stream.socket.close()
    }

    @Test("events carry the list's view state: a script's setLayout, pause and search reach the page")
    func viewStateInEvents() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/photos")
        let share = try #require(live.app.shareID(cookie: cookie))
        for (demo, action, body, key, before, after) in [
            ("photos", "setLayout", #"{"layout":"grid"}"#, "layout", "leftThreeRightThree", "grid"),
            ("urls", "pause", "{}", "publisher", "running", "paused"),
            ("mountains", "search", #"{"query":"ben"}"#, "query", "", "ben"),
        ] {
            var stream = try await live.events("/demos/\(demo)/events?width=800&height=600", cookie: cookie)
            let snapshot = try await next(&stream)
            #expect((snapshot.json["state"] as? [String: String])?[key] == before, "\(demo): \(snapshot.json["state"] ?? "none")")
            #expect(try await live.postJSON("/api/sessions/\(share)/demos/\(demo)/actions/\(action)", body).status == 200)
            var event = try await next(&stream)
            while event.name != "changeset" { event = try await next(&stream) }
            #expect((event.json["state"] as? [String: String])?[key] == after, "\(demo): \(event.data.prefix(300))")
            stream.socket.close()
        }
    }

    @Test("a segmented control presses exactly the option of the list's state, on load and after a script's change")
    func segmentedControlsOnThePage() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/photos")
        let share = try #require(live.app.shareID(cookie: cookie))
        func pressed(_ demo: String) async throws -> [String] {
            let page = try await get(port: live.port, "/demos/\(demo)", headers: ["Cookie": "dw_session=\(cookie)"]).text
            return page.components(separatedBy: "aria-pressed=\"true\"").dropLast().map { before in
                String(before.components(separatedBy: "data-state-value=\"").last?.prefix { $0 != "\"" } ?? "")
            }
        }
        #expect(try await pressed("photos") == ["leftThreeRightThree"])
        #expect(try await live.postJSON("/api/sessions/\(share)/demos/photos/actions/setLayout", #"{"layout":"list"}"#).status == 200)
        #expect(try await pressed("photos") == ["list"])
        #expect(try await pressed("urls") == ["running"])
        #expect(try await live.postJSON("/api/sessions/\(share)/demos/urls/actions/pause", "{}").status == 200)
        #expect(try await pressed("urls") == ["paused"])
    }

    @Test("the toolbar has only actions that can work; forms with parameters are in the script panel, and positions count from 1")
    func formsThatCanWork() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let page = try await get(port: live.port, "/demos/numbers", headers: ["Cookie": "dw_session=\(cookie)"]).text
        let toolbar = try #require(page.components(separatedBy: "role=\"toolbar\"").dropFirst().first?.components(separatedBy: "</div>").first)
        #expect(toolbar.contains("data-action=\"append\"") && !toolbar.contains("data-action=\"move\"") && !toolbar.contains("data-action=\"reorder\""))
        #expect(!toolbar.contains("<input"), "no field the toolbar cannot fill")
        let panel = try #require(page.components(separatedBy: "id=\"script-panel\"").dropFirst().first)
        #expect(panel.contains(#"name="from" type="number" min="1" data-one-based required"#))
        #expect(panel.contains(#"id="script-reorder-to" name="to""#), "reorder's form has its position")
        // The no-JavaScript post of the panel's Move: from 1 to 3 moves Item 1 to the third place.
        let moved = try await post(port: live.port, "/demos/numbers/actions/move", body: Array("from=1&to=3".utf8),
                                   headers: ["Cookie": "dw_session=\(cookie)", "Content-Type": "application/x-www-form-urlencoded"])
        #expect(moved.status == 303)
        let order = try #require(live.app.sessionList(cookie: cookie, demo: "numbers")).dataSource.snapshot().itemIdentifiers
        #expect(order == ["n2", "n3", "n1", "n4", "n5"])
        // Destinations' like, unlike and retry target one post: they are in its cell, not the toolbar.
        let destinations = try await get(port: live.port, "/demos/destinations", headers: ["Cookie": "dw_session=\(cookie)"]).text
        let before = destinations.components(separatedBy: "id=\"script-panel\"").first ?? ""
        #expect(!before.contains(#"name="post" type="text""#), "no free-text post id on the page")
        #expect(before.contains(#"<input type="hidden" name="post" value="post-0001">"#), "a post's like is in its cell")
    }

    @Test("the script panel names the origin the page was requested by (or --public-url), never a fixed port")
    func scriptPanelOrigin() async throws {
        let live = try await LiveServer.start()
        let page = try await get(port: live.port, "/demos/numbers").text  // Host: test
        #expect(page.contains("curl -s http://test/api/sessions/") && !page.contains("127.0.0.1:8080"))
        #expect(page.contains(#"data-copy="command-snapshot""#))
        let proxied = try await LiveServer.start { $0.publicURL = "https://lists.example.org/" }
        let behindProxy = try await get(port: proxied.port, "/demos/numbers").text
        #expect(behindProxy.contains("curl -s https://lists.example.org/api/sessions/"))
        let hostile = try await exchange(port: live.port, "GET /demos/numbers HTTP/1.1\r\nHost: a\"b<c\r\nConnection: close\r\n\r\n").text
        #expect(!hostile.contains("a\"b") && hostile.contains("curl -s http://127.0.0.1/api/"))
    }

    @Test("the status line says what a person cares about; the counters are the list's details")
    func statusAndDetails() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/destinations")
        var stream = try await live.events("/demos/destinations/events?width=800&height=600", cookie: cookie)
        let snapshot = try await next(&stream)
        let status = try #require(snapshot.json["status"] as? String)
        #expect(status.hasSuffix(" posts") && !status.contains("assets"), "\(status)")
        #expect((snapshot.json["details"] as? String)?.hasPrefix("assets: ") == true)
        let share = try #require(live.app.shareID(cookie: cookie))
        let session = object(try await get(port: live.port, "/api/sessions/\(share)"))
        let entry = (session["demos"] as? [[String: Any]])?.first { $0["name"] as? String == "destinations" }
        #expect((entry?["details"] as? String)?.hasPrefix("assets: ") == true)
        stream.socket.close()
    }
}
