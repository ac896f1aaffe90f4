import DiffableDataSources
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The list limits (100,000 items, 1,000 sections) hold on every write path, a demo's actions
/// included: a write that would pass them is a 422 `list_too_large` that applies nothing,
/// streams nothing and leaves the version where it was (issue 21, finding 5).
@Suite("Live list limits: a demo's action cannot grow a list past 100,000 items or 1,000 sections", .stopsLiveServers)
struct LiveListLimitsTests {
    struct Setup {
        var live: LiveServer
        var cookie: String
        /// The session's id in the API (`/api/sessions/<id>`).
        var id: String
    }

    func start(_ page: String) async throws -> Setup {
        let numbers = try Numbers.descriptor()
        let urls = try URLStream.descriptor(urls: LiveURLStreamTests.urls, interval: 60_000...60_000)
        let live = try await LiveServer.start {
            $0.demos = [urls, numbers]
        }
        let cookie = try await live.newSession(page)
        return Setup(live: live, cookie: cookie, id: try #require(live.app.shareID(cookie: cookie)))
    }

    /// Makes `snapshot` the list's through its writer (100,000 ids over HTTP would take a while).
    func put(_ snapshot: Snapshot<String, String>, into list: LiveList) async throws {
        let update = try await list.exclusive { $0.apply(snapshot, animatingDifferences: false) }
        #expect(update?.snapshot.numberOfItems == snapshot.numberOfItems, "the set-up itself is within the limits")
    }

    /// `sections` sections `s0`, `s1`… of `items` items each (`<section>/<n>`).
    func snapshot(sections: Int, items: Int, item: (String, Int) -> String) throws -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        for section in 0..<sections {
            try snapshot.appendSections(["s\(section)"])
            try snapshot.appendItems((0..<items).map { item("s\(section)", $0) }, toSection: "s\(section)")
        }
        return snapshot
    }

    func publish(_ setup: Setup, _ urls: [String]) async throws -> HTTPResponse {
        let body = try JSONSerialization.data(withJSONObject: ["urls": urls])
        return try await setup.live.postJSON("/api/sessions/\(setup.id)/demos/urls/actions/publish", String(decoding: body, as: UTF8.self))
    }

    @Test("URL stream: a publish that would pass 100,000 items is a 422, and the list is as it was")
    func publishPastItems() async throws {
        let setup = try await start("/demos/urls")
        let list = try #require(setup.live.app.sessionList(cookie: setup.cookie, demo: "urls"))
        // 100,000 items in sections other than `main`: a publish adds `main` and its batch.
        try await put(try snapshot(sections: 5, items: 20_000) { "/\($0)/\($1).svg" }, into: list)
        let (version, before) = list.currentSnapshot()
        let details = list.demo.details(of: before)
        let response = try await publish(setup, ["/demos/photos/assets/p001.svg"])
        #expect(response.status == 422, "\(response.text)")
        #expect(object(response)["error"] as? String == "list_too_large")
        #expect(response.text.contains("100,001 items"), "\(response.text)")
        let (after, snapshot) = list.currentSnapshot()
        #expect(after == version && snapshot == before)
        #expect(list.demo.details(of: snapshot) == details, "the refused batch is not counted")
    }

    @Test("URL stream: a publish that would add a 1,001st section is a 422: nothing applied, nothing streamed")
    func publishPastSections() async throws {
        let setup = try await start("/demos/urls")
        let list = try #require(setup.live.app.sessionList(cookie: setup.cookie, demo: "urls"))
        try await put(try snapshot(sections: 1_000, items: 0) { "\($0)/\($1)" }, into: list)
        var stream = try await setup.live.events("/demos/urls/events?width=900&height=900", cookie: setup.cookie)
        let first = try await next(&stream)
        #expect(first.name == "snapshot")
        let (version, before) = list.currentSnapshot()
        let response = try await publish(setup, ["/demos/photos/assets/p001.svg", "/demos/photos/assets/p002.svg"])
        #expect(response.status == 422, "\(response.text)")
        #expect(object(response)["error"] as? String == "list_too_large")
        #expect(response.text.contains("1,001 sections"), "\(response.text)")
        #expect(list.version == version && list.currentSnapshot().snapshot == before)
        // The next change is the next event: the refused one sent none.
        let paused = try await setup.live.postJSON("/api/sessions/\(setup.id)/demos/urls/actions/pause", "{}")
        #expect(paused.status == 200 && object(paused)["version"] as? Int == version + 1)
        let event = try await next(&stream)
        #expect(event.name == "changeset" && event.json["version"] as? Int == version + 1)
        stream.socket.close()
    }

    @Test("Numbers: an append that would pass 100,000 items is a 422, and its numbers are given back")
    func numbersAppend() async throws {
        let setup = try await start("/demos/numbers")
        let list = try #require(setup.live.app.sessionList(cookie: setup.cookie, demo: "numbers"))
        var full = Snapshot<String, String>()
        try full.appendSections([Numbers.section])
        try full.appendItems((1...99_999).map { "n\($0)" })
        try await put(full, into: list)
        let version = list.version
        let path = "/api/sessions/\(setup.id)/demos/numbers/actions/append"
        let over = try await setup.live.postJSON(path, #"{"count":2}"#)
        #expect(over.status == 422, "\(over.text)")
        #expect(object(over)["error"] as? String == "list_too_large")
        #expect(list.version == version && list.currentSnapshot().snapshot == full)
        let one = try await setup.live.postJSON(path, #"{"count":1}"#)
        #expect(one.status == 200 && object(one)["version"] as? Int == version + 1)
        #expect(list.currentSnapshot().snapshot.itemIdentifiers.last == "n100000", "the refused append used up no number")
        let more = try await setup.live.postJSON(path, "{}")
        #expect(more.status == 422 && list.version == version + 1)
    }
}
