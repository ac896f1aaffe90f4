import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Destinations (seed 002) over real sockets: likes reconfigure in place, a failed asset's
/// retry reloads, and assets load ahead of the window and cancel when it moves away.
@Suite("Live destinations: reconfigure in place, reload on retry, prefetch and cancel by window", .stopsLiveServers)
struct LiveDestinationsTests {
    static let places = (1...40).map { (name: "Peak \($0)", height: 3000 + $0) }

    func start(latency: ClosedRange<Int>) async throws -> (LiveServer, String) {
        let live = try await LiveServer.start {
            $0.demos = [try Destinations.descriptor(places: Self.places, postCount: 120, assetLatency: latency)]
        }
        return (live, try await live.newSession("/demos/destinations"))
    }

    func demo(_ live: LiveServer, _ cookie: String) throws -> WebListDemo<Destinations> {
        try #require(live.app.sessionList(cookie: cookie, demo: "destinations")?.demo as? WebListDemo<Destinations>)
    }

    /// Events until one satisfies `done` (images that arrive meanwhile are skipped).
    func until(_ stream: inout EventReader, _ done: (SSEEvent) -> Bool) async throws -> SSEEvent {
        for _ in 0..<20 {
            let event = try await next(&stream)
            if done(event) { return event }
        }
        throw ClientError("no such event")
    }

    @Test("like and unlike are reconfigures: the cell's content changes in place, nothing is deleted or inserted")
    func likes() async throws {
        let (live, cookie) = try await start(latency: 60_000...60_000)
        var stream = try await live.events("/demos/destinations/events?width=1000&height=768", cookie: cookie)
        _ = try await next(&stream)
        let before = try demo(live, cookie).data(for: "post-0002")
        let liked = try await live.postJSON("/demos/destinations/actions/like", #"{"post":"post-0002"}"#, cookie: cookie)
        #expect(liked.status == 200)
        let event = try await until(&stream) { $0.name == "changeset" }
        #expect((event.json["inserted"] as? [Any])?.isEmpty == true && (event.json["deleted"] as? [Any])?.isEmpty == true)
        let update = (event.json["updated"] as? [[String: Any]])?.first
        #expect(update?["id"] as? String == "post-0002" && update?["reload"] as? Bool == false)
        let likes = Int(before?["likes"] ?? "") ?? -1
        #expect((update?["html"] as? String)?.contains(#"<span class="like-count">\#((likes + 1).grouped)</span>"#) == true)
        #expect((update?["html"] as? String)?.contains(#"aria-pressed="true""#) == true)
        #expect(try demo(live, cookie).data(for: "post-0002")?["liked"] == "true")
        #expect(try demo(live, cookie).data(for: "post-0002")?["asset"] == "pending")
        let version = live.app.sessionList(cookie: cookie, demo: "destinations")?.version
        _ = try await live.postJSON("/demos/destinations/actions/like", #"{"post":"post-0002"}"#, cookie: cookie)
        #expect(live.app.sessionList(cookie: cookie, demo: "destinations")?.version == version, "a second like changes nothing")
        _ = try await live.postJSON("/demos/destinations/actions/unlike", #"{"post":"post-0002"}"#, cookie: cookie)
        #expect(try demo(live, cookie).data(for: "post-0002")?["likes"] == before?["likes"])
        for bad in [#"{"post":"post-9999"}"#, #"{"post":"promo-1"}"#, #"{"post":"x"}"#] {
            let refused = try await live.postJSON("/demos/destinations/actions/like", bad, cookie: cookie)
            #expect(refused.status == 422 && refused.text.contains("unknown_items"), "\(bad): \(refused.text)")
        }
        stream.socket.close()
    }

    @Test("a tap on a post selects it and opens it (the primary action); a promo opens nothing; a script's selection opens nothing; Close shuts it")
    func opensPosts() async throws {
        let (live, cookie) = try await start(latency: 60_000...60_000)
        let page = try await get(port: live.port, "/demos/destinations", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(page.text.contains(#"data-selection-pattern="grid""#), "a card holds a Like button: the grid pattern")
        #expect(page.text.contains(#"data-opened="false""#))
        func tap(_ item: String, seq: Int) async throws -> [String]? {
            let response = try await live.postJSON("/demos/destinations/select", #"{"item":"\#(item)","seq":\#(seq)}"#, cookie: cookie)
            #expect(response.status == 200, "\(item): \(response.text)")
            return (object(response)["selection"] as? [String: Any])?["items"] as? [String]
        }
        func values() throws -> [String: String] { try demo(live, cookie).pageValues() }

        #expect(try await tap("post-0002", seq: 1) == ["post-0002"])
        #expect(try values()["opened"] == "true" && values()["openedTitle"] == "First light on Peak 2")
        #expect(try await tap("promo-1", seq: 2) == ["post-0002"], "shouldSelect refuses a promo")
        #expect(try values()["openedTitle"] == "First light on Peak 2", "and a promo has nothing to open")

        // The pane's likes follow a like of the opened post.
        let liked = try await live.postJSON("/demos/destinations/actions/like", #"{"post":"post-0002"}"#, cookie: cookie)
        #expect(liked.status == 200)
        #expect(try values()["openedLikes"]?.hasSuffix("yours among them") == true)

        // A script selects without the primary action (UIKit's selectItem): nothing opens.
        let share = try #require(live.app.shareID(cookie: cookie))
        let scripted = try await live.postJSON("/api/sessions/\(share)/demos/destinations/selection", #"{"items":["post-0005"]}"#)
        #expect(scripted.status == 200)
        #expect(try values()["openedTitle"] == "First light on Peak 2")

        let closed = try await live.postJSON("/demos/destinations/actions/close", "{}", cookie: cookie)
        #expect(closed.status == 200)
        #expect(try values()["opened"] == "false")
        let reopened = try await get(port: live.port, "/demos/destinations", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(reopened.text.contains(#"data-opened="false""#))
    }

    @Test("a failed asset shows Retry; retry is a reload (a new cell), then the picture arrives")
    func retry() async throws {
        let (live, cookie) = try await start(latency: 0...0)
        var stream = try await live.events("/demos/destinations/events?width=1000&height=768", cookie: cookie)
        _ = try await next(&stream)
        // post-0007 fails its first load (every seventh does).
        let failed = try await until(&stream) { event in
            ((event.json["updated"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == "post-0007" }
        }
        let update = (failed.json["updated"] as? [[String: Any]])?.first { $0["id"] as? String == "post-0007" }
        #expect(update?["reload"] as? Bool == true && (update?["html"] as? String)?.contains("Retry") == true)
        #expect(try demo(live, cookie).data(for: "post-0007")?["asset"] == "failed")
        let retried = try await live.postJSON("/demos/destinations/actions/retry", #"{"post":"post-0007"}"#, cookie: cookie)
        #expect(retried.status == 200)
        let reloaded = try await until(&stream) { event in
            ((event.json["updated"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == "post-0007" && ($0["html"] as? String)?.contains("<img") == true }
        }
        #expect(reloaded.name == "changeset")
        #expect(try demo(live, cookie).data(for: "post-0007")?["asset"] == "loaded")
        let again = try await live.postJSON("/demos/destinations/actions/retry", #"{"post":"post-0007"}"#, cookie: cookie)
        #expect(again.status == 422 && again.text.contains("asset_not_failed"))
        let image = try await get(port: live.port, "/demos/destinations/assets/p007.svg")
        #expect(image.status == 200 && image.header("Content-Type") == "image/svg+xml")
        stream.socket.close()
    }

    @Test("loads start for the window and are cancelled when it moves far away; the counters show it")
    func prefetchAndCancel() async throws {
        let (live, cookie) = try await start(latency: 60_000...60_000)
        var stream = try await live.events("/demos/destinations/events?width=1000&height=768&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamID = try #require(snapshot.json["stream"] as? String)
        let demo = try demo(live, cookie)
        #expect(await eventually("the window's prefetch starts its loads") { demo.current.counters.started > 0 })
        let first = demo.current.counters
        #expect(first.started >= 10 && first.cancelled == 0, "the window (two screens of 124-px rows) starts its loads: \(first)")
        let moved = try await live.postJSON("/demos/destinations/viewport", #"{"stream":"\#(streamID)","width":1000,"height":768,"top":9000}"#, cookie: cookie)
        #expect(moved.status == 204)
        #expect(await eventually("the moved window's prefetch cancels the first loads") { demo.current.counters.cancelled == first.started })
        let after = demo.current.counters
        #expect(after.started > first.started, "the new window's loads started: \(after)")
        #expect(after.completed == 0 && after.failed == 0)
        let details = live.app.sessionList(cookie: cookie, demo: "destinations").map { $0.demo.details(of: $0.dataSource.snapshot()) } ?? ""
        #expect(details.contains("\(first.started) cancelled"), "\(details)")
        let share = try #require(live.app.shareID(cookie: cookie))
        let described = object(try await get(port: live.port, "/api/sessions/\(share)"))
        let entry = (described["demos"] as? [[String: Any]])?.first { $0["name"] as? String == "destinations" }
        #expect(entry?["details"] as? String == details, "the API shows the same counters")
        stream.socket.close()
    }

    @Test("with two tabs a load is cancelled only when no tab's window shows its post; a closed tab's window counts as empty")
    func twoTabs() async throws {
        let (live, cookie) = try await start(latency: 60_000...60_000)
        var tabA = try await live.events("/demos/destinations/events?width=1000&height=768&top=0", cookie: cookie)
        _ = try await next(&tabA)
        var tabB = try await live.events("/demos/destinations/events?width=1000&height=768&top=0", cookie: cookie)
        let snapshotB = try await next(&tabB)
        let streamB = try #require(snapshotB.json["stream"] as? String)
        let demo = try demo(live, cookie)
        #expect(await eventually("the window's prefetch starts its loads") { demo.current.counters.started > 0 })
        let started = demo.current.counters.started
        _ = try await live.postJSON("/demos/destinations/viewport", #"{"stream":"\#(streamB)","width":1000,"height":768,"top":9000}"#, cookie: cookie)
        #expect(await eventually("B's moved window's prefetch starts its loads") { demo.current.counters.started > started }, "B's new window starts its own loads")
        #expect(demo.current.counters.cancelled == 0, "tab A still shows the first posts")
        tabA.socket.close()
        #expect(await eventually("A's closed stream leaves the window and its loads are cancelled") { demo.current.counters.cancelled == started }, "A closed: the first posts' loads are cancelled")
        tabB.socket.close()
    }
}
