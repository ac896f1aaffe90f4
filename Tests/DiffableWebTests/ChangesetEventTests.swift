import CompositionalLayout
import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb

@Suite("Web: changeset events are proportional to the change")
struct ChangesetEventTests {
    @Test("a keystroke that removes a few rows sends those deletes and the frames that moved, nothing else")
    func proportional() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ben"}"#)
        let before = try #require(visitor.list("mountains")?.dataSource.snapshot().itemIdentifiers)
        await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ben "}"#)
        let list = try #require(visitor.list("mountains"))
        let after = list.dataSource.snapshot().itemIdentifiers
        let event = try #require(list.recentEvents.last)
        #expect(event.name == "changeset")
        let body = payload(event)
        let deleted = body["deleted"] as? [String] ?? []
        #expect(Set(deleted) == Set(before).subtracting(after))
        #expect((body["inserted"] as? [Any])?.isEmpty == true)
        #expect((body["updated"] as? [Any])?.isEmpty == true)
        let moved = body["moved"] as? [[String: Any]] ?? []
        #expect(moved.count <= after.count, "only survivors whose frame changed")
        #expect(event.data.utf8.count < 200 * (deleted.count + moved.count) + 200)
    }

    @Test("inserted cells carry section, index, frame and escaped HTML")
    func inserted() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: "{}")
        let list = try #require(visitor.list("numbers"))
        let body = payload(try #require(list.recentEvents.last))
        let inserted = try #require((body["inserted"] as? [[String: Any]])?.first)
        #expect(inserted["id"] as? String == "n6")
        #expect(inserted["section"] as? String == "numbers")
        #expect(inserted["index"] as? Int == 5)
        #expect(inserted["html"] as? String == #"<span class="label">Item 6</span>"#)
        let frame = try #require(inserted["frame"] as? [String: Double])
        // Plain list at the default 1000 px: a 28-px header, then 44-px rows.
        #expect(frame == ["x": 0, "y": 28 + 5 * 44, "w": 1000, "h": 44])
        let updated = body["updated"] as? [[String: Any]] ?? []
        #expect(updated.first?["id"] as? String == "header:numbers", "the header's count changed in place")
        let contentHeight = (body["contentSize"] as? [String: Any])?["h"] as? Double
        #expect(contentHeight == Double(28 + 6 * 44))
    }

    @Test("a resize re-lays out and streams only the frames that changed")
    func resize() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.get, "/demos/mountains")
        let list = try #require(visitor.list("mountains"))
        list.setViewport(LayoutContainer(width: 390, height: 844))
        let event = try #require(list.recentEvents.last)
        #expect(event.name == "layout")
        #expect(event.id.description == "1.1")
        let moved = payload(event)["moved"] as? [[String: Any]] ?? []
        #expect(moved.count == 1_467, "every column changes width from 3 to 2 columns")
        list.setViewport(LayoutContainer(width: 390, height: 844))
        #expect(list.recentEvents.last?.id.description == "1.1", "the same viewport sends nothing")
        list.setViewport(LayoutContainer(width: 390, height: 600))
        #expect(list.recentEvents.last?.id.description == "1.1", "a height change that moves nothing sends nothing")
    }

    @Test("the event log replays what a reconnecting client missed, or asks for a snapshot")
    func replay() async throws {
        let app = try await makeApp { $0.eventLogCapacity = 4 }
        let visitor = Visitor(app)
        for _ in 0..<6 { await visitor.send(.post, "/demos/numbers/actions/append", json: "{}") }
        let list = try #require(visitor.list("numbers"))
        var log = EventLog(capacity: 4)
        for event in list.recentEvents { log.append(event) }
        #expect(log.events(after: EventID(version: 5))?.map(\.id.version) == [6, 7])
        #expect(log.events(after: EventID(version: 7))?.isEmpty == true)
        #expect(log.events(after: EventID(version: 1)) == nil, "fell out of the log: start from a snapshot")
        #expect(EventID("12.3") == EventID(version: 12, layout: 3))
        var small = EventLog(capacity: 100, byteBudget: 10)
        for version in 1...4 { small.append(LoggedEvent(id: EventID(version: version), name: "changeset", data: "123456")) }
        #expect(small.events.map(\.id.version) == [4], "over the byte budget only the newest is kept")
        #expect(EventID("x") == nil && EventID("1.2.3") == nil && EventID("-1") == nil)
    }

    @Test("the hand-written JSON round-trips through JSONDecoder, tricky strings included",
          arguments: ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\u{1}", "<script>alert(1)</script>", "Ñúñez ⛰️ 山", ""])
    func jsonRoundTrip(text: String) throws {
        let cell = WireCell(id: text, kind: "item", section: "s\(text)", index: 3,
                            frame: WireFrame(LayoutRect(x: 10, y: 52.5, width: 316.67, height: 32)), html: "<span>\(text)</span>")
        let event = ChangesetEvent(version: 7, animated: true, contentSize: WireSize(LayoutPixelSize(width: 1000, height: 1234.5)),
                                   status: text, deleted: [text, "b"], inserted: [cell],
                                   moved: [WireMove(id: text, frame: cell.frame)], updated: [WireUpdate(id: text, html: text, reload: true)])
        let decoded = try JSONDecoder().decode(ChangesetEvent.self, from: Data(event.json.utf8))
        #expect(decoded.status == text && decoded.deleted == [text, "b"] && decoded.inserted == [cell])
        #expect(decoded.moved == event.moved && decoded.updated == event.updated && decoded.contentSize == event.contentSize)
        #expect(!event.json.contains("<"), "< is escaped, so an event never closes a script element")
        let snapshot = SnapshotEvent(version: 1, contentSize: event.contentSize, status: text, cells: [cell])
        #expect(try JSONDecoder().decode(SnapshotEvent.self, from: Data(snapshot.json.utf8)).cells == [cell])
        let layout = LayoutEvent(version: 1, contentSize: event.contentSize, deleted: [text], inserted: [], moved: event.moved)
        #expect(try JSONDecoder().decode(LayoutEvent.self, from: Data(layout.json.utf8)).moved == event.moved)
    }

    @Test("the filter matches Apple's rule: lowercased name contains the lowercased query, sorted by name")
    func filterMatchesAppleRule() throws {
        let catalog = try MountainCatalog.bundled()
        for query in ["", "k", "BEN", "mont", "ñ", "ø", "(", "zzz", "a' ", "Ü"] {
            let expected = catalog.mountains.filter { query.isEmpty || $0.name.lowercased().contains(query.lowercased()) }
                .sorted { $0.name < $1.name }.map(\.id)
            #expect(catalog.filtered(by: query).map(\.id) == expected, "query \(query)")
        }
    }

    @Test("the snapshot event lists every cell with its HTML")
    func snapshotEvent() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.get, "/demos/numbers")
        let event = try #require(visitor.list("numbers")?.snapshotEvent())
        let cells = payload(event)["cells"] as? [[String: Any]] ?? []
        #expect(cells.map { $0["id"] as? String } == ["header:numbers", "n1", "n2", "n3", "n4", "n5"])
        #expect(payload(event)["status"] as? String == "5 items")
    }
}
