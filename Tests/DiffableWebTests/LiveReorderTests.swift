import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Numbers' reordering by hand (issue 12): through the data source's reordering handlers, with
/// the transaction in the answer; pinned rows refused; every change a changeset.
@Suite("Live reorder: a person's moves go through the reordering handlers and stream as moves", .stopsLiveServers)
struct LiveReorderTests {
    func reorder(_ live: LiveServer, _ id: String, _ body: String) async throws -> (status: Int, json: [String: Any]) {
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/reorder", body)
        return (response.status, object(response))
    }

    func items(_ live: LiveServer, _ id: String) async throws -> (version: Int, items: [String]) {
        let body = object(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/snapshot"))
        let items = ((body["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        return (body["version"] as? Int ?? -1, items)
    }

    @Test("reorder to a position: the answer carries the transaction's difference, and the stream a move")
    func toPosition() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let id = try #require(live.app.shareID(cookie: cookie))
        var stream = try await live.events("/demos/numbers/events?width=600&height=800", cookie: cookie)
        _ = try await next(&stream)
        let (status, answer) = try await reorder(live, id, #"{"item":"n2","to":4}"#)
        #expect(status == 200 && answer["position"] as? Int == 4 && answer["count"] as? Int == 5)
        let difference = (answer["transaction"] as? [String: Any])?["difference"] as? [String: [[String: Any]]]
        #expect(difference?["removals"]?.first?["element"] as? String == "n2" && difference?["removals"]?.first?["offset"] as? Int == 1)
        #expect(difference?["insertions"]?.first?["offset"] as? Int == 4 && difference?["insertions"]?.first?["associatedWith"] as? Int == 1)
        #expect(try await items(live, id).items == ["n1", "n3", "n4", "n5", "n2"])
        let event = try await next(&stream)
        #expect(event.name == "changeset")
        #expect((event.json["moved"] as? [[String: Any]])?.flatMap { $0["ids"] as? [String] ?? [] } == ["n2"])
        #expect((event.json["inserted"] as? [Any])?.isEmpty == true && (event.json["deleted"] as? [Any])?.isEmpty == true)
        #expect((event.json["details"] as? String)?.contains("1 reordered by hand") == true, "didReorder ran")
        #expect(event.json["status"] as? String == "5 items", "the status line is for people: no counters")
        stream.socket.close()
    }

    @Test("up and down move one place; at an end they change nothing, not even the version")
    func directions() async throws {
        let live = try await LiveServer.start()
        let id = try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
        #expect(try await reorder(live, id, #"{"item":"n3","direction":"up"}"#).json["position"] as? Int == 1)
        #expect(try await reorder(live, id, #"{"item":"n3","direction":"down"}"#).json["position"] as? Int == 2)
        let before = try await items(live, id)
        let top = try await reorder(live, id, #"{"item":"n1","direction":"up"}"#)
        #expect(top.status == 200 && top.json["transaction"] == nil && top.json["version"] as? Int == before.version)
        #expect(try await items(live, id).items == ["n1", "n2", "n3", "n4", "n5"])
    }

    @Test("refused: a pinned row (canReorderItem), an unknown item, a bad position or direction; nothing changes",
          arguments: [(#"{"item":"n10","to":0}"#, 422, "reordering_not_allowed"), (#"{"item":"n10","direction":"up"}"#, 422, "reordering_not_allowed"),
                      (#"{"item":"n99","to":0}"#, 422, "unknown_items"), (#"{"item":"n2","to":99}"#, 400, "invalid_parameter"),
                      (#"{"item":"n2","direction":"sideways"}"#, 400, "invalid_parameter"), (#"{"to":1}"#, 400, "missing_parameter")])
    func refused(body: String, status: Int, code: String) async throws {
        let live = try await LiveServer.start()
        let id = try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
        _ = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", #"{"count":5}"#)
        let before = try await items(live, id)
        #expect(before.items.contains("n10"))
        let answer = try await reorder(live, id, body)
        #expect(answer.status == status && answer.json["error"] as? String == code, "\(answer.json)")
        let after = try await items(live, id)
        #expect(after.items == before.items && after.version == before.version)
    }

    @Test("without JavaScript a row's ↑ button posts a form and redirects back")
    func noJavaScript() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        let page = await visitor.send(.get, "/demos/numbers")
        #expect(page.text.contains(#"<input type="hidden" name="item" value="n3"><input type="hidden" name="direction" value="up"><button type="submit" data-move="up" aria-label="Move Item 3 up">"#))
        let redirect = await visitor.send(.post, "/demos/numbers/actions/reorder", form: "item=n3&direction=up")
        #expect(redirect.status == .seeOther && redirect.headers["Location"] == "/demos/numbers")
        #expect(visitor.list("numbers")?.dataSource.snapshot().itemIdentifiers == ["n1", "n3", "n2", "n4", "n5"])
    }
}
