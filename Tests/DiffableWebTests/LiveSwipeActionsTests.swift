import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// Swipe actions through the API on the Emoji Explorer (docs/protocol.md, "Swipe actions"): a
/// star is a reconfigure of that row alone; an action the item does not offer, an unknown
/// item and a handler's completion(false) change nothing.
@Suite("Live swipe actions: performed in a write, refused without a change", .stopsLiveServers)
struct LiveSwipeActionsTests {
    static let base = "/demos/emoji-explorer"

    func session(_ live: LiveServer) async throws -> String {
        try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
    }

    func snapshotText(_ live: LiveServer, _ id: String) async throws -> String {
        try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/snapshot").text
    }

    @Test("an item's offered actions: star leading (outermost, full swipe), hide trailing; a category offers none")
    func offered() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let fox = object(try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/swipe-actions?item=fox"))
        let leading = try #require(fox["leading"] as? [String: Any])
        #expect((leading["actions"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["star"])
        #expect(leading["performsFirstActionWithFullSwipe"] as? Bool == true)
        let trailing = try #require(fox["trailing"] as? [String: Any])
        #expect((trailing["actions"] as? [[String: Any]])?.first?["style"] as? String == "destructive")
        let category = object(try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/swipe-actions?item=animals"))
        #expect(category["leading"] is NSNull && category["trailing"] is NSNull)
        let unknown = try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/swipe-actions?item=nope")
        #expect(unknown.status == 404 && object(unknown)["error"] as? String == "unknown_item")
    }

    @Test("star by swipe: the changeset reconfigures that row only (same identity, the star in its HTML)")
    func starIsAReconfigure() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        var stream = try await live.events("/api/sessions/\(id)\(Self.base)/events?width=600&height=2000", cookie: nil)
        let first = try await next(&stream)
        let version = try #require(first.json["version"] as? Int)
        let answer = try await live.postJSON("/api/sessions/\(id)\(Self.base)/swipe-actions", #"{"item":"fox","action":"star"}"#)
        #expect(answer.status == 200 && object(answer)["performed"] as? Bool == true && object(answer)["version"] as? Int == version + 1)
        let event = try await next(&stream)
        #expect(event.name == "changeset")
        #expect((event.json["inserted"] as? [Any])?.isEmpty == true && (event.json["deleted"] as? [Any])?.isEmpty == true)
        let updated = try #require(event.json["updated"] as? [[String: Any]])
        #expect(updated.map { $0["id"] as? String } == ["fox"], "only the swiped row")
        #expect(updated.first?["reload"] as? Bool == false, "a reconfigure keeps the row's node")
        #expect((updated.first?["html"] as? String)?.contains("explorer-star") == true)
        // The leading action is now Unstar.
        let fox = object(try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/swipe-actions?item=fox"))
        #expect(((fox["leading"] as? [String: Any])?["actions"] as? [[String: Any]])?.first?["identifier"] as? String == "unstar")
        stream.socket.close()
    }

    @Test("refused without a change: an action not offered (422 naming it), an unknown item (404), completion(false)",
          arguments: [
              (#"{"item":"fox","action":"unstar"}"#, 422, "swipe_action_not_offered"),
              (#"{"item":"fox","action":"launch"}"#, 422, "swipe_action_not_offered"),
              (#"{"item":"animals","action":"star"}"#, 422, "swipe_action_not_offered"),
              (#"{"item":"nope","action":"star"}"#, 404, "unknown_item"),
              (#"{"action":"star"}"#, 400, "missing_parameter"),
          ])
    func refused(body: String, status: Int, code: String) async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let before = try await snapshotText(live, id)
        let answer = try await live.postJSON("/api/sessions/\(id)\(Self.base)/swipe-actions", body)
        #expect(answer.status == status && object(answer)["error"] as? String == code, "\(answer.text)")
        if code == "swipe_action_not_offered" { #expect(answer.text.contains("offers no swipe action")) }
        #expect(try await snapshotText(live, id) == before, "nothing changed")
    }

    @Test("completion(false): hiding a starred emoji performs nothing and changes nothing")
    func completionFalse() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        _ = try await live.postJSON("/api/sessions/\(id)\(Self.base)/swipe-actions", #"{"item":"koala","action":"star"}"#)
        let before = try await snapshotText(live, id)
        let answer = try await live.postJSON("/api/sessions/\(id)\(Self.base)/swipe-actions", #"{"item":"koala","action":"hide"}"#)
        #expect(answer.status == 200 && object(answer)["performed"] as? Bool == false)
        #expect(try await snapshotText(live, id) == before, "the same version and items")
        // Unstarred, the same action hides it.
        _ = try await live.postJSON("/api/sessions/\(id)\(Self.base)/swipe-actions", #"{"item":"koala","action":"unstar"}"#)
        let hidden = try await live.postJSON("/api/sessions/\(id)\(Self.base)/swipe-actions", #"{"item":"koala","action":"hide"}"#)
        #expect(object(hidden)["performed"] as? Bool == true)
        #expect(try await !snapshotText(live, id).contains("\"koala\""))
    }
}
