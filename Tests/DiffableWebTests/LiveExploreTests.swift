import CompositionalLayout
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Explore over real sockets: orthogonal sections on the wire (their bands and behaviours), and a
/// window that holds every card of a carousel it meets, not only those at scroll offset 0.
@Suite("Live explore: orthogonal sections stream their bands and every card of a carousel in the window", .stopsLiveServers)
struct LiveExploreTests {
    @Test("the snapshot describes the sideways sections and carries all their cards; a shuffle streams moves")
    func orthogonalWindow() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/explore")
        var stream = try await live.events("/demos/explore/events?width=1000&height=768&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let bands = (snapshot.json["orthogonal"] as? [[String: Any]]) ?? []
        #expect(bands.map { $0["section"] as? String } == ["featured", "new"])
        #expect(bands.map { $0["behavior"] as? String } == ["groupPaging", "continuous"])
        // featured: 8 cards of 0.9 × (1000 − 40) = 864, 12 apart, 20 on each side (the
        // inset-grouped list's margin, so that every section starts on one edge).
        #expect(abs((bands.first?["w"] as? Double ?? 0) - (8 * 864 + 7 * 12 + 40)) < 0.01)
        #expect(bands.first?["y"] as? Double == 44 && bands.first?["h"] as? Double == 240 && bands.first?["x"] as? Double == 20)
        let cells = (snapshot.json["cells"] as? [[String: Any]]) ?? []
        let featured = cells.filter { $0["section"] as? String == "featured" && $0["kind"] as? String == "item" }
        #expect(featured.count == 8, "all cards, also those beyond the viewport's width")
        let last = featured.compactMap { $0["frame"] as? [String: Double] }.map { $0["x"] ?? 0 }.max() ?? 0
        #expect(abs(last - (20 + 7 * (864 + 12))) < 0.01, "the last card's x along the section's own axis")
        #expect(cells.contains { $0["id"] as? String == "header:featured" && $0["kind"] as? String == "header" })

        let share = try #require(live.app.shareID(cookie: cookie))
        let shuffled = try await live.postJSON("/api/sessions/\(share)/demos/explore/actions/shuffle", #"{"section":"new"}"#)
        #expect(shuffled.status == 200)
        let event = try await next(&stream)
        #expect(event.name == "changeset")
        #expect((event.json["inserted"] as? [Any])?.isEmpty == true && (event.json["deleted"] as? [Any])?.isEmpty == true)
        #expect(event.json["orthogonal"] != nil, "a changeset restates the bands")
        let bad = try await live.postJSON("/api/sessions/\(share)/demos/explore/actions/shuffle", #"{"section":"sideways"}"#)
        #expect(bad.status == 400)
        stream.socket.close()
    }

    @Test("the API's layout lists the section background with its element kind, at the frame a stream gets")
    func layoutRouteListsDecorations() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/explore")
        var stream = try await live.events("/demos/explore/events?width=390&height=2000&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamed = try #require((snapshot.json["cells"] as? [[String: Any]])?.first { $0["kind"] as? String == "decoration" })
        let shareID = try #require(live.app.shareID(cookie: cookie))
        let layout = object(try await get(port: live.port, "/api/sessions/\(shareID)/demos/explore/layout?width=390&height=2000"))
        let cells = try #require(layout["cells"] as? [[String: Any]])
        let listed = try #require(cells.first { $0["id"] as? String == streamed["id"] as? String })
        #expect(listed["kind"] as? String == "decoration" && listed["decoration"] as? String == "inset-grouped-card")
        #expect(listed["frame"] as? [String: Double] == streamed["frame"] as? [String: Double])
        stream.socket.close()
    }
}

