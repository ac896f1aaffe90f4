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
        #expect(EventID("x") == nil && EventID("1.2.3") == nil && EventID("-1") == nil)
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
