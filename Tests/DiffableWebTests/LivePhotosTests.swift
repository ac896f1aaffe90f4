import CompositionalLayout
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The photo grid (seed 001) over real sockets: layouts switched live, pages, async images.
@Suite("Live photos: layouts switch in place, pages load near the end, images replace placeholders", .stopsLiveServers)
struct LivePhotosTests {
    static let library = PhotoLibrary.generated(captions: ["Alpha", "Beta", "Gamma"], count: 75)

    func start(latency: ClosedRange<Int> = 0...0, gate: (@Sendable (String) async -> Void)? = nil) async throws -> (LiveServer, String) {
        let live = try await LiveServer.start { $0.demos = [try Photos.descriptor(library: Self.library, imageLatency: latency, imageGate: gate)] }
        return (live, try await live.newSession("/demos/photos"))
    }

    func items(_ live: LiveServer, _ cookie: String) -> [String] {
        live.app.sessionList(cookie: cookie, demo: "photos")?.dataSource.snapshot().itemIdentifiers ?? []
    }

    @Test("setLayout moves every cell of the window to the seed layout's frame; nothing is inserted, deleted or re-created")
    func switchLayouts() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("/demos/photos/events?width=1000&height=768&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        let held = Set(((snapshot.json["cells"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        #expect(held.count >= 12, "3 + 3 on 1000×768: six photos a screen, two screens in the window")
        for layout in [PhotoLayout.grid, .list, .leftOneRightThree, .leftThreeRightThree] {
            let response = try await live.postJSON("/demos/photos/actions/setLayout", #"{"layout":"\#(layout.rawValue)"}"#, cookie: cookie)
            #expect(response.status == 200)
            let version = try #require(((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any])?["version"] as? Int)
            var event = try await next(&stream)
            while event.json["version"] as? Int != version {
                event = try await next(&stream)  // an image that arrived meanwhile, or the next page
            }
            #expect(event.name == "changeset")
            #expect((event.json["inserted"] as? [Any])?.isEmpty == true && (event.json["deleted"] as? [Any])?.isEmpty == true)
            // Every cell sent has the frame the seed's layout gives it, within a pixel.
            let result = layout.layout.solve(itemCounts: [Self.library.photos.count], container: LayoutContainer(width: 1000, height: 768))
            let cells = (event.json["cells"] as? [[String: Any]]) ?? []
            #expect(!cells.isEmpty)
            for cell in cells {
                guard let id = cell["id"] as? String, let index = Int(id.dropFirst()).map({ $0 - 1 }),
                      let frame = cell["frame"] as? [String: Double], let expected = result.itemFrame(at: ItemPath(section: 0, item: index)) else {
                    Issue.record("bad cell \(cell)"); continue
                }
                #expect(abs(frame["x", default: -99] - expected.x) <= 1 && abs(frame["y", default: -99] - expected.y) <= 1)
                #expect(abs(frame["w", default: -99] - expected.width) <= 1 && abs(frame["h", default: -99] - expected.height) <= 1)
                // A cell the client already holds moves: the event carries no new HTML for it.
                if held.contains(id) { #expect(cell["html"] == nil, "\(id) is moved, not re-created") }
            }
        }
        let bad = try await live.postJSON("/demos/photos/actions/setLayout", #"{"layout":"mosaic"}"#, cookie: cookie)
        #expect(bad.status == 400 && bad.text.contains("invalid_parameter"))
        stream.socket.close()
    }

    @Test("loadMore appends pages of 30 until the library ends; clear empties the list; the next load starts from page 1 and adds the section")
    func pages() async throws {
        let (live, cookie) = try await start()
        #expect(items(live, cookie).count == 30)
        #expect(try await live.postJSON("/demos/photos/actions/loadMore", "{}", cookie: cookie).status == 200)
        #expect(items(live, cookie) == (1...60).map { String(format: "p%03d", $0) })
        _ = try await live.postJSON("/demos/photos/actions/loadMore", "{}", cookie: cookie)
        let end = try await live.postJSON("/demos/photos/actions/loadMore", "{}", cookie: cookie)
        #expect(items(live, cookie).count == 75, "75 photos: the third page has 15, a fourth adds nothing")
        let version = live.app.sessionList(cookie: cookie, demo: "photos")?.version
        #expect(end.text.contains("\"version\":\(version ?? -1)"))
        _ = try await live.postJSON("/demos/photos/actions/clear", "{}", cookie: cookie)
        #expect(live.app.sessionList(cookie: cookie, demo: "photos")?.dataSource.snapshot().numberOfSections == 0)
        _ = try await live.postJSON("/demos/photos/actions/loadMore", "{}", cookie: cookie)
        let snapshot = try #require(live.app.sessionList(cookie: cookie, demo: "photos")?.dataSource.snapshot())
        #expect(snapshot.sectionIdentifiers == ["main"] && snapshot.itemIdentifiers.first == "p001" && snapshot.numberOfItems == 30)
    }

    @Test("scrolling near the end loads the next page by itself (the seed's pagination)")
    func paginationByScrolling() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("/demos/photos/events?width=1000&height=768&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamID = try #require(snapshot.json["stream"] as? String)
        // 30 photos in 3 + 3 are five screens tall: scroll to the last one.
        _ = try await live.postJSON("/demos/photos/viewport", #"{"stream":"\#(streamID)","width":1000,"height":768,"top":3072}"#, cookie: cookie)
        var grew = false
        for _ in 0..<10 where !grew {
            let event = try await next(&stream)
            grew = event.name == "changeset" && ((event.json["inserted"] as? [[String: Any]])?.first?["ids"] as? [String])?.first == "p031"
        }
        #expect(grew, "the next page was appended as an insert")
        stream.socket.close()
    }

    @Test("an image replaces its placeholder by reloadItems once it has loaded")
    func imagesLoad() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("/demos/photos/events?width=1000&height=768&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let first = ((snapshot.json["cells"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == "p001" }
        #expect((first?["html"] as? String)?.contains("photo placeholder") == true)
        var reloaded: [String: Any]?
        for _ in 0..<5 where reloaded == nil {
            let event = try await next(&stream)
            reloaded = ((event.json["updated"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == "p001" }
        }
        #expect(reloaded?["reload"] as? Bool == true)
        #expect((reloaded?["html"] as? String)?.contains(#"<img class="photo" src="/demos/photos/assets/p001.svg""#) == true)
        let image = try await get(port: live.port, "/demos/photos/assets/p001.svg")
        #expect(image.status == 200 && image.header("Content-Type") == "image/svg+xml" && image.text.hasPrefix("<svg ") && !image.text.contains("Alpha"),
                "the picture, without its caption: the page draws that")
        let etag = try #require(image.header("ETag"))
        let again = try await get(port: live.port, "/demos/photos/assets/p001.svg", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(try await get(port: live.port, "/demos/photos/assets/p999.svg").status == 404)
        stream.socket.close()
    }

    @Test("a photo deleted while its image loads: the load finishes with no error and no event")
    func deletedWhileLoading() async throws {
        // Loads finish only once the test releases them, after the delete (they took 2 s, and a
        // delete that came later than that on a loaded machine raced them).
        let released = CountSignal()
        let loading = CountSignal()
        let (live, cookie) = try await start(gate: { _ in
            loading.signal()
            await released.wait(for: 1)
        })
        var stream = try await live.events("/demos/photos/events?width=1000&height=768&top=0", cookie: cookie)
        _ = try await next(&stream)  // the snapshot; its window's loads start after it
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "photos"))
        // The delete must find every load of the window under way (a delete answered before
        // the jobs started left the window empty: no load at all).
        #expect(await loading.wait(for: 12), "the window's 12 loads started")
        // Delete every photo before any load ends (the window is left empty: nothing new loads).
        let ids = list.dataSource.snapshot().itemIdentifiers.map { "\"\($0)\"" }.joined(separator: ",")
        let share = try #require(live.app.shareID(cookie: cookie))
        let delete = try await live.postJSON("/api/sessions/\(share)/demos/photos/operations",
                                             #"{"operations":[{"op":"deleteItems","items":[\#(ids)]}]}"#)
        #expect(delete.status == 200)
        let deleted = try await next(&stream)
        #expect(deleted.name == "changeset")
        let version = list.version
        let started = try #require(list.demo.data(for: "p001"))
        #expect(started["loaded"] == "false")
        released.signal()
        #expect(await eventually("every image load finishes") {
            list.demo.details(of: list.dataSource.snapshot()).hasSuffix("images loaded 12 of 12 started")
        }, "every load finished")
        #expect(list.demo.data(for: "p001")?["loaded"] == "true", "the load itself finished")
        // No event is what is under test: nothing signals an apply that does not happen, so the
        // test gives one the time it would take.
        try await Task.sleep(for: .milliseconds(500))
        #expect(list.version == version, "no apply after the loads finished")
        let details = list.demo.details(of: list.dataSource.snapshot())
        #expect(details.hasSuffix("images loaded 12 of 12 started"), "\(details)")
        #expect(throws: (any Error).self, "no event: the stream stays quiet") { try stream.nextEvent(timeout: 0.3) }
        stream.socket.close()
    }
}
