import CompositionalLayout
import DiffableDataSources
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Issue 23, "layouts that adapt": Mountains and Destinations read their container's width as
/// UIKit's section providers read `layoutEnvironment.container.effectiveContentSize`, and a
/// stream whose viewport narrows gets its held cells at their new frames.
@Suite("Adaptive layouts: Mountains' columns and Destinations' cards follow the container's width", .stopsLiveServers)
struct LiveAdaptiveLayoutTests {
    static let catalog: MountainCatalog = (try? MountainCatalog.bundled()) ?? MountainCatalog(mountains: [])

    func frames(_ demo: some Demo, width: Double, count: Int = 30) -> [LayoutRect] {
        let layout = ListLayout(snapshot: demo.initialSnapshot(), layout: demo.layout(), container: LayoutContainer(width: width, height: 844))
        return Array(layout.allCells.prefix(count).map(\.frame))
    }

    func columns(_ frames: [LayoutRect]) -> Int { Set(frames.map(\.x)).count }

    @Test("Mountains: one column on a phone (390 px), two on a small tablet (700 px), three on a desktop (1024 px)")
    func mountainColumns() throws {
        let demo = try Mountains.descriptor(sharing: [Self.catalog]).make()
        let phone = frames(demo, width: 390)
        #expect(columns(phone) == 1, "\(phone.prefix(3))")
        #expect(phone.allSatisfy { $0.x == 10 && $0.width == 370 }, "the whole width less the 10-px insets: \(phone.prefix(3))")
        #expect(phone[1].y == phone[0].maxY + 10, "one row per mountain, 10 px apart")
        #expect(columns(frames(demo, width: 700)) == 2)
        #expect([589, 590, 879, 880].map(Mountains.columns(forWidth:)) == [1, 2, 2, 3], "columns of 280 px or more")
        let desktop = frames(demo, width: 1024)
        #expect(columns(desktop) == 3, "\(desktop.prefix(3))")
        #expect(desktop[0].y == desktop[2].y && desktop[3].y > desktop[0].y)
        // Every row has room for a long name on two lines beside its height.
        #expect((phone + desktop).allSatisfy { $0.height == Mountains.rowHeight && $0.height >= 44 })
    }

    @Test("Destinations: a taller card (the picture above the text) on a phone, the picture beside the text on a desktop")
    func destinationCards() throws {
        let places = (1...12).map { (name: "Peak \($0)", height: 3000 + $0) }
        let demo = try Destinations.descriptor(places: places, postCount: 20, assetLatency: 0...0).make()
        let phone = frames(demo, width: 390), desktop = frames(demo, width: 1024)
        #expect(phone.allSatisfy { $0.x == 16 && $0.width == 358 })
        #expect(desktop.allSatisfy { $0.x == 16 && $0.width == 992 })
        #expect(phone[0].height >= 2 * desktop[0].height, "the picture above the text needs a taller card: \(phone[0]) vs \(desktop[0])")
        #expect(phone[0].height == Destinations.cardHeight(forWidth: 390))
        // The CSS (`@container post (width < 568px)`) stacks a card exactly when the layout does.
        #expect(Destinations.cardHeight(forWidth: Destinations.stackedBelow - 1) != Destinations.cardHeight(forWidth: Destinations.stackedBelow))
    }

    @Test("a stream that narrows from 1024 to 390 px gets its held Mountains cells in one column")
    func resizeMovesHeldCells() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/mountains")
        var stream = try await live.events("/demos/mountains/events?width=1024&height=800&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamID = try #require(snapshot.json["stream"] as? String)
        let held = try #require(snapshot.json["cells"] as? [[String: Any]])
        func x(_ cell: [String: Any]) -> Double? { (cell["frame"] as? [String: Any])?["x"] as? Double }
        #expect(Set(held.compactMap(x)).count == 3, "three columns at 1024 px")
        let moved = try await live.postJSON("/demos/mountains/viewport",
                                            #"{"stream":"\#(streamID)","width":390,"height":844,"top":0}"#, cookie: cookie)
        #expect(moved.status == 204)
        let window = try await next(&stream)
        #expect(window.name == "window")
        let cells = try #require(window.json["cells"] as? [[String: Any]])
        #expect(!cells.isEmpty)
        #expect(Set(cells.compactMap(x)) == [10], "every held or entered cell in the one column: \(window.data.prefix(300))")
        let layout = try #require(live.app.sessionList(cookie: cookie, demo: "mountains")).layout(for: .init(width: 390, height: 844))
        // A held cell's frame names only the parts that changed: merged with the one held.
        let heldFrames = Dictionary(held.compactMap { cell in (cell["id"] as? String).map { ($0, cell["frame"] as? [String: Double] ?? [:]) } },
                                    uniquingKeysWith: { first, _ in first })
        for cell in cells {
            let id = try #require(cell["id"] as? String)
            let frame = (heldFrames[id] ?? [:]).merging(try #require(cell["frame"] as? [String: Double])) { _, new in new }
            let expected = try #require(layout.cell(id)?.frame)
            #expect(frame["y"] == expected.y && frame["w"] == expected.width, "\(id)")
        }
        stream.socket.close()
    }

    @Test("the session's next page is laid out for the viewport its tab streams for: a phone's first render is one column")
    func firstRenderUsesTheStreamsViewport() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/mountains")
        let desktop = try await get(port: live.port, "/demos/mountains", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(desktop.text.contains(#"data-frame="340,10,320,44""#), "the default viewport (1000 px): three columns")
        var stream = try await live.events("/demos/mountains/events?width=390&height=844&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamID = try #require(snapshot.json["stream"] as? String)
        let phone = try await get(port: live.port, "/demos/mountains", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(phone.text.contains(#"data-frame="10,64,370,44""#), "one column, as the stream's window")
        #expect(!phone.text.contains(#"data-frame="340,10,"#))
        // A rotation (a resize report) is the next page's viewport too.
        #expect(try await live.postJSON("/demos/mountains/viewport", #"{"stream":"\#(streamID)","width":700,"height":390,"top":0}"#, cookie: cookie).status == 204)
        let rotated = try await get(port: live.port, "/demos/mountains", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(rotated.text.contains(#"data-frame="10,10,335,44""#), "two columns at 700 px")
        stream.socket.close()
    }
}
