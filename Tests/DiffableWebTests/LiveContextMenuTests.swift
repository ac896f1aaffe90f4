import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// Context menus through the API on the Emoji Explorer (docs/protocol.md, "Context menus"): the
/// items a menu is for follow the selection, and its action applies to all of them.
@Suite("Live context menus: the selection's items, one write for all", .stopsLiveServers)
struct LiveContextMenuTests {
    static let base = "/demos/emoji-explorer"

    func session(_ live: LiveServer) async throws -> String {
        try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
    }

    func menu(_ live: LiveServer, _ id: String, _ query: String) async throws -> [String: Any] {
        object(try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/menu\(query)"))
    }

    @Test("in the selection: every selected item; outside: that item; empty space: none")
    func itemsFollowTheSelection() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        _ = try await live.postJSON("/api/sessions/\(id)\(Self.base)/selection", #"{"items":["penguin","fox","panda"]}"#)
        #expect(try await menu(live, id, "?item=panda")["items"] as? [String] == ["fox", "panda", "penguin"], "in list order")
        #expect(try await menu(live, id, "?item=taco")["items"] as? [String] == ["taco"])
        let empty = try await menu(live, id, "")
        #expect(empty["items"] as? [String] == [] && empty["menu"] is NSNull, "nothing hidden: no menu for empty space")
        let multiple = try await menu(live, id, "?item=fox")
        #expect((multiple["menu"] as? [String: Any])?["title"] as? String == "3 emoji")
        let unknown = try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/menu?item=nope")
        #expect(unknown.status == 404 && object(unknown)["error"] as? String == "unknown_item")
    }

    @Test("a menu action on a multiple selection applies to every selected item, in one changeset")
    func actionOnTheSelection() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        _ = try await live.postJSON("/api/sessions/\(id)\(Self.base)/selection", #"{"items":["pizza","taco","sushi"]}"#)
        var stream = try await live.events("/api/sessions/\(id)\(Self.base)/events?width=600&height=2000", cookie: nil)
        _ = try await next(&stream)
        let items = try #require(try await menu(live, id, "?item=taco")["items"] as? [String])
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["items": items, "action": "star"]), as: UTF8.self)
        let answer = try await live.postJSON("/api/sessions/\(id)\(Self.base)/menu", body)
        #expect(answer.status == 200 && object(answer)["performed"] as? Bool == true)
        let event = try await next(&stream)
        let updated = Set((event.json["updated"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(updated == ["pizza", "taco", "sushi"])
        let snapshot = try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/snapshot").text
        for (item, label) in [("pizza", "Pizza"), ("taco", "Taco"), ("sushi", "Sushi")] {
            #expect(snapshot.contains(#""id":"\#(item)","data":{"kind":"emoji","label":"\#(label)","starred":"true"}"#), "\(item)")
        }
        #expect(snapshot.contains(#""id":"doughnut","data":{"kind":"emoji","label":"Doughnut","starred":"false"}"#), "only the selected")
        // All starred now: the menu offers Unstar, and Hide is disabled.
        let children = try #require((try await menu(live, id, "?item=pizza")["menu"] as? [String: Any])?["children"] as? [[String: Any]])
        #expect(children.map { $0["identifier"] as? String } == ["unstar", "hide"])
        #expect(children.last?["disabled"] as? Bool == true && children.last?["destructive"] as? Bool == true)
        let disabled = try await live.postJSON("/api/sessions/\(id)\(Self.base)/menu", #"{"items":["pizza","taco"],"action":"hide"}"#)
        #expect(disabled.status == 422 && object(disabled)["error"] as? String == "menu_action_disabled", "\(disabled.text)")
        #expect(try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/snapshot").text == snapshot, "nothing changed")
        stream.socket.close()
    }

    @Test("refused without a change: an action the menu lacks (422 naming it), an unknown item (404), a missing parameter",
          arguments: [
              (#"{"items":["fox"],"action":"launch"}"#, 422, "menu_action_not_offered"),
              (#"{"items":[],"action":"star"}"#, 422, "menu_action_not_offered"),
              (#"{"items":["fox","nope"],"action":"star"}"#, 404, "unknown_item"),
              (#"{"action":"star"}"#, 400, "missing_parameter"),
          ])
    func refused(body: String, status: Int, code: String) async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let before = try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/snapshot").text
        let answer = try await live.postJSON("/api/sessions/\(id)\(Self.base)/menu", body)
        #expect(answer.status == status && object(answer)["error"] as? String == code, "\(answer.text)")
        if code == "menu_action_not_offered" { #expect(answer.text.contains("“launch”") || answer.text.contains("“star”")) }
        #expect(try await get(port: live.port, "/api/sessions/\(id)\(Self.base)/snapshot").text == before)
    }
}
