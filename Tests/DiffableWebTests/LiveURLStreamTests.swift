import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The URL stream (seed 003) over real sockets: batches replace section `main`, a URL in two
/// batches moves, bad input changes nothing, the publisher runs only while watched and unpaused.
@Suite("Live URL stream: batches replace the list, repeated URLs move, the publisher runs only while watched", .stopsLiveServers)
struct LiveURLStreamTests {
    static let urls = (1...60).map { "/demos/photos/assets/p\(String(format: "%03d", $0)).svg" }

    func start(interval: ClosedRange<Int> = 60_000...60_000) async throws -> (LiveServer, String) {
        let urls = try URLStream.descriptor(urls: Self.urls, interval: interval)
        let live = try await LiveServer.start { $0.demos = [urls] }
        return (live, try await live.newSession("/demos/urls"))
    }

    func items(_ live: LiveServer, _ cookie: String) -> [String] {
        live.app.sessionList(cookie: cookie, demo: "urls")?.dataSource.snapshot().itemIdentifiers ?? []
    }

    func publish(_ live: LiveServer, _ cookie: String, _ urls: [String]) async throws -> HTTPResponse {
        let body = try JSONSerialization.data(withJSONObject: ["urls": urls])
        return try await live.postJSON("/demos/urls/actions/publish", String(decoding: body, as: UTF8.self), cookie: cookie)
    }

    @Test("a batch replaces the items; a URL in both batches is moved, the others deleted and inserted")
    func replaceAndMove() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("/demos/urls/events?width=900&height=900", cookie: cookie)
        _ = try await next(&stream)
        let (a, b, c, d) = ("/demos/photos/assets/p001.svg", "https://example.org/x.jpg", "/demos/photos/assets/p003.svg", "http://h/y.png")
        #expect(try await publish(live, cookie, [a, b, c]).status == 200)
        _ = try await next(&stream)
        #expect(try await publish(live, cookie, [d, c, a]).status == 200)
        let event = try await next(&stream)
        #expect(items(live, cookie) == [d, c, a])
        #expect(event.json["deleted"] as? [String] == [b])
        #expect((event.json["inserted"] as? [[String: Any]])?.flatMap { $0["ids"] as? [String] ?? [] } == [d])
        let moved = (event.json["moved"] as? [[String: Any]])?.flatMap { $0["ids"] as? [String] ?? [] } ?? []
        #expect(!moved.isEmpty && Set(moved).isSubset(of: [a, c]), "a and c stay: one of them moves, neither is re-created")
        let cells = (event.json["cells"] as? [[String: Any]]) ?? []
        #expect(cells.filter { $0["html"] != nil }.compactMap { $0["id"] as? String } == [d], "only the new URL gets HTML")
        stream.socket.close()
    }

    @Test("a bad URL or a duplicate in a batch is a 422 naming it, and nothing changes",
          arguments: [["/ok.svg", "javascript:alert(1)"], ["/ok.svg", "not a url"], ["//evil.example/x"], ["ftp://h/x"],
                      ["/a.svg", "/b.svg", "/a.svg"], [String(repeating: "/x", count: 101)]])
    func refused(batch: [String]) async throws {
        let (live, cookie) = try await start()
        #expect(try await publish(live, cookie, ["/first.svg"]).status == 200)
        let version = live.app.sessionList(cookie: cookie, demo: "urls")?.version
        let response = try await publish(live, cookie, batch)
        #expect(response.status == 422, "\(response.text)")
        let culprit = batch.count == 3 ? "/a.svg" : String(batch.last!.prefix(200))
        #expect(response.text.contains(culprit), "the error names \(culprit): \(response.text)")
        #expect(items(live, cookie) == ["/first.svg"])
        #expect(live.app.sessionList(cookie: cookie, demo: "urls")?.version == version)
        let empty = try await publish(live, cookie, [])
        #expect(empty.status == 400)
    }

    @Test("the publisher sends batches only while a stream is open and it is not paused")
    func publisherFollowsStreams() async throws {
        let (live, cookie) = try await start(interval: 20...40)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "urls"))
        // No batch is what is under test: read from the jobs the framework runs (started and
        // cancelled with the change that asks for it), not waited for on a clock.
        let urls = try #require(list.demo as? WebListDemo<URLStream>)
        #expect(urls.runningJobIDs.isEmpty, "nobody watches: no publisher runs")
        #expect(list.version == 1, "nobody watches: no batch")
        var stream = try await live.events("/demos/urls/events?width=900&height=900", cookie: cookie)
        _ = try await next(&stream)
        let batch = try await next(&stream)
        #expect(batch.name == "changeset")
        let count = items(live, cookie).count
        #expect(URLStream.batchSizes.contains(count) && Set(items(live, cookie)).isSubset(of: Set(Self.urls)))
        #expect(try await live.postJSON("/demos/urls/actions/pause", "{}", cookie: cookie).status == 200)
        // The pause's write cancels the publisher; a batch's write that waited behind the pause
        // finds its job cancelled and changes nothing (the writer runs them in turn).
        #expect(urls.runningJobIDs.isEmpty, "paused: the publisher is cancelled")
        let paused = list.version
        #expect(try await live.postJSON("/demos/urls/actions/resume", "{}", cookie: cookie).status == 200)
        #expect(urls.runningJobIDs == ["publisher"], "resumed: the publisher runs again")
        #expect(await eventually("the resumed publisher's next batch is applied") { list.version > paused }, "resumed: batches again")
        stream.socket.close()
        #expect(await eventually("the server sees the hang-up and the list stops counting the stream") { list.openStreamCount == 0 })
        // The job is cancelled with the stream's count (the demo hears of it just after the list
        // stops counting it): from then on no batch is written.
        #expect(await eventually("the publisher is cancelled with the last stream") { urls.runningJobIDs.isEmpty }, "no stream: no publisher")
    }
}

extension LiveURLStreamTests {
    @Test("a script does over the API what the page does: publish URLs, switch the photo layout, read both back")
    func overTheAPI() async throws {
        let stream = try URLStream.descriptor(urls: Self.urls, interval: 60_000...60_000)
        let live = try await LiveServer.start {
            $0.demos = [stream,
                        try Photos.descriptor(library: LivePhotosTests.library, imageLatency: 0...0)]
        }
        let id = try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
        let published = try await live.postJSON("/api/sessions/\(id)/demos/urls/actions/publish", #"{"urls":["/a.svg","https://example.org/b.png"]}"#)
        #expect(published.status == 200)
        let urls = object(try await get(port: live.port, "/api/sessions/\(id)/demos/urls/snapshot"))
        let items = ((urls["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(items == ["/a.svg", "https://example.org/b.png"])
        let array = try await live.postJSON("/api/sessions/\(id)/demos/photos/actions/setLayout", #"{"layout":["grid"]}"#)
        #expect(array.status == 400, "an array where a string belongs is refused")
        #expect(try await live.postJSON("/api/sessions/\(id)/demos/photos/actions/setLayout", #"{"layout":"grid"}"#).status == 200)
        let layout = object(try await get(port: live.port, "/api/sessions/\(id)/demos/photos/layout?width=900&height=600"))
        let first = (layout["cells"] as? [[String: Any]])?.first { $0["id"] as? String == "p004" }?["frame"] as? [String: Double]
        #expect(first == ["x": 1, "y": 301, "w": 298, "h": 298], "the grid: 300-px squares with 1-px insets, p004 starts row 2")
    }
}
