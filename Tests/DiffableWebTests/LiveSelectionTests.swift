import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// A single-selection list (UIKit's default settings) whose delegate refuses `locked` and
/// counts what a person did: the numbers' cells.
private struct Picker: SelectableList {
    static let title = "Picker"
    static let cellTemplate = "cells/number"
    var selects = 0
    var primaryActions = 0
    enum Action: WebListAction { case reload(item: String) }
    struct Cell: Encodable { let id: String; let number: Int; let label: String; let pinned: Bool? }

    func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot(["all": ["a", "b", "c", "locked"]]) }
    func cell(for item: String) -> Cell? { Cell(id: item, number: 1, label: item, pinned: nil) }
    mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        guard case .reload(let item) = action else { return }
        try list.reloadItems([item])
    }
    func shouldSelect(_ item: String) -> Bool { item != "locked" }
    mutating func didSelect(_ item: String) { selects += 1 }
    mutating func performPrimaryAction(for item: String) { primaryActions += 1 }
    func details(of list: Snapshot<String, String>) -> String { "\(selects) selected by hand, \(primaryActions) primary actions" }
}

/// Selection in the web layer (issue 39): by identifier on the server, in the events, through
/// the API and the page, saved with the list.
@Suite("Live selection: a list's selection travels in events, through the API and the page, and survives restarts", .stopsLiveServers)
struct LiveSelectionTests {
    func selection(_ response: HTTPResponse) -> [String]? {
        (object(response)["selection"] as? [String: Any])?["items"] as? [String]
    }

    func session(_ live: LiveServer) async throws -> String {
        try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
    }

    @Test("selected through the API: in the answer, GET …/selection, GET …/snapshot and the next changeset")
    func apiSelection() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        var stream = try await live.events("/api/sessions/\(id)/demos/numbers/events?width=600&height=800", cookie: nil)
        let first = try await next(&stream)
        #expect(first.name == "snapshot")
        #expect(first.json["selection"] as? [String: Any] != nil, "a snapshot always states the selection")
        let version = first.json["version"] as? Int ?? -1

        let answer = try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"select":["n4","n2"]}"#)
        #expect(answer.status == 200 && selection(answer) == ["n4", "n2"] && object(answer)["version"] as? Int == version + 1)
        #expect((object(answer)["selection"] as? [String: Any])?["multiple"] as? Bool == true)
        let event = try await next(&stream)
        #expect(event.name == "changeset" && (event.json["selection"] as? [String: Any])?["items"] as? [String] == ["n4", "n2"])
        #expect(event.json["animated"] as? Bool == false && (event.json["moved"] as? [Any])?.isEmpty == true)
        #expect(selection(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/selection")) == ["n4", "n2"])
        #expect(selection(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/snapshot")) == ["n4", "n2"])

        // Replace, deselect, all.
        #expect(selection(try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"items":["n5"]}"#)) == ["n5"])
        #expect(selection(try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"items":["n1"],"mode":"add"}"#)) == ["n5", "n1"])
        #expect(selection(try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"deselect":["n5"]}"#)) == ["n1"])
        #expect(selection(try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"all":true}"#))?.count == 5)
        #expect(selection(try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"all":false}"#)) == [])
        stream.socket.close()
    }

    @Test("a move keeps an item selected; a delete drops it, and the changeset says so; Delete selected reads it")
    func throughChanges() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        _ = try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"select":["n2","n5"]}"#)
        var stream = try await live.events("/api/sessions/\(id)/demos/numbers/events?width=600&height=800", cookie: nil)
        _ = try await next(&stream)
        let move = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                           #"{"operations":[{"op":"moveItem","item":"n2","beforeItem":"n1"}]}"#)
        #expect(move.status == 200)
        let moved = try await next(&stream)
        #expect(moved.json["selection"] == nil, "unchanged: not in the event")
        #expect(selection(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/selection")) == ["n2", "n5"])

        #expect(try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/removeLast", "{}").status == 200)
        let removed = try await next(&stream)
        #expect(removed.json["deleted"] as? [String] == ["n5"])
        #expect((removed.json["selection"] as? [String: Any])?["items"] as? [String] == ["n2"])

        #expect(try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/deleteSelected", "{}").status == 200)
        let deleted = try await next(&stream)
        #expect(deleted.json["deleted"] as? [String] == ["n2"])
        #expect((deleted.json["selection"] as? [String: Any])?["items"] as? [String] == [])
        stream.socket.close()
    }

    @Test("refused requests change nothing: an unknown item (404 naming it), no body field or two (400)",
          arguments: [(#"{"select":["n2","n99"]}"#, 404, "unknown_item"), (#"{"items":["nope"]}"#, 404, "unknown_item"),
                      (#"{"deselect":["n77"]}"#, 404, "unknown_item"), (#"{}"#, 400, "invalid_parameter"),
                      (#"{"select":["n1"],"deselect":["n2"]}"#, 400, "invalid_parameter"), (#"{"items":["n1"],"mode":"merge"}"#, 400, "invalid_parameter"),
                      (#"{"select":"n1"}"#, 400, "malformed_json")])
    func refused(body: String, status: Int, code: String) async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        _ = try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", #"{"select":["n3"]}"#)
        let before = object(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/selection"))
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/selection", body)
        #expect(response.status == status && object(response)["error"] as? String == code)
        if code == "unknown_item" { #expect((object(response)["message"] as? String)?.contains("n") == true) }
        let after = object(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/selection"))
        #expect(after["version"] as? Int == before["version"] as? Int)
        #expect((after["selection"] as? [String: Any])?["items"] as? [String] == ["n3"])
    }

    @Test("a single-selection list: a second item added is a 422 naming both; a tap replaces; shouldSelect refuses; didSelect only for a person")
    func singleSelection() async throws {
        let live = try await LiveServer.start { $0.demos = [try Picker.descriptor()] }
        let id = try await session(live)
        let base = "/api/sessions/\(id)/demos/picker/selection"
        #expect(selection(try await live.postJSON(base, #"{"select":["a"]}"#)) == ["a"])
        let second = try await live.postJSON(base, #"{"items":["b"],"mode":"add"}"#)
        #expect(second.status == 422 && object(second)["error"] as? String == "multiple_selection_not_allowed")
        #expect((object(second)["message"] as? String)?.contains("b") == true)
        let two = try await live.postJSON(base, #"{"items":["a","b"]}"#)
        #expect(two.status == 422, "replace with two items in single selection")
        #expect(selection(try await get(port: live.port, base)) == ["a"], "refused: unchanged")

        // A person's taps, from the page (the session's cookie).
        let cookie = try await live.newSession("/demos/picker")
        let tap = try await live.postJSON("/demos/picker/select", #"{"item":"b","seq":1}"#, cookie: cookie)
        #expect(tap.status == 200 && selection(tap) == ["b"])
        #expect(selection(try await live.postJSON("/demos/picker/select", #"{"item":"c","seq":2}"#, cookie: cookie)) == ["c"], "a tap replaces")
        #expect(selection(try await live.postJSON("/demos/picker/select", #"{"item":"locked","seq":3}"#, cookie: cookie)) == ["c"], "shouldSelect refused")
        #expect(selection(try await live.postJSON("/demos/picker/select", #"{"item":"a","seq":2}"#, cookie: cookie)) == ["c"], "a stale seq is ignored")
        let unknown = try await live.postJSON("/demos/picker/select", #"{"item":"zz","seq":4}"#, cookie: cookie)
        #expect(unknown.status == 404 && object(unknown)["error"] as? String == "unknown_item")
        let share = try #require(live.app.shareID(cookie: cookie))
        let details = object(try await get(port: live.port, "/api/sessions/\(share)")) as [String: Any]
        let picker = (details["demos"] as? [[String: Any]])?.first { $0["name"] as? String == "picker" }
        #expect(picker?["details"] as? String == "2 selected by hand, 3 primary actions",
                "didSelect for each tap that selected; the primary action for every tap, refused ones too")
    }

    @Test("a reloaded item leaves the selection (UITableView deselects a reloaded row)")
    func reloadDeselects() async throws {
        let live = try await LiveServer.start { $0.demos = [try Picker.descriptor()] }
        let id = try await session(live)
        _ = try await live.postJSON("/api/sessions/\(id)/demos/picker/selection", #"{"select":["b"]}"#)
        #expect(try await live.postJSON("/api/sessions/\(id)/demos/picker/actions/reload", #"{"item":"b"}"#).status == 200)
        #expect(selection(try await get(port: live.port, "/api/sessions/\(id)/demos/picker/selection")) == [])
    }

    @Test("a list without selection: 404 not_selectable")
    func notSelectable() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let response = try await live.postJSON("/api/sessions/\(id)/demos/photos/selection", #"{"select":["x"]}"#)
        #expect(response.status == 404 && object(response)["error"] as? String == "not_selectable")
        let snapshot = object(try await get(port: live.port, "/api/sessions/\(id)/demos/photos/snapshot"))
        #expect(snapshot["selection"] == nil)
    }

    @Test("a reconnect with Last-Event-ID replays the selection's changes")
    func reconnect() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        var stream = try await live.events("/demos/numbers/events?width=600&height=800", cookie: cookie)
        let snapshot = try await next(&stream)
        stream.socket.close()
        _ = try await live.postJSON("/demos/numbers/select", #"{"item":"n3","seq":1}"#, cookie: cookie)
        _ = try await live.postJSON("/demos/numbers/select", #"{"item":"n5","extend":true,"seq":2}"#, cookie: cookie)
        var again = try await live.events("/demos/numbers/events?width=600&height=800", cookie: cookie, lastEventID: snapshot.id)
        let first = try await next(&again)
        let second = try await next(&again)
        #expect(first.name == "changeset" && (first.json["selection"] as? [String: Any])?["items"] as? [String] == ["n3"])
        #expect(second.name == "changeset" && (second.json["selection"] as? [String: Any])?["items"] as? [String] == ["n3", "n4", "n5"],
                "Shift-click: the range from the anchor")
        again.socket.close()
    }

    @Test("the selection survives a restart on the SQLite store, and the page's no-JavaScript form shows and changes it")
    func restart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(first)
        await visitor.send(.get, "/demos/numbers")
        let tap = await visitor.send(.post, "/demos/numbers/select", json: #"{"item":"n2","seq":1}"#)
        #expect(tap.status == .ok)
        await visitor.send(.post, "/demos/numbers/select", json: #"{"item":"n4","seq":2}"#)
        let version = visitor.list("numbers")?.version

        let second = try await makeApp { $0.stateDirectory = directory.path }
        let returning = Visitor(second)
        returning.cookie = visitor.cookie
        let page = await returning.send(.get, "/demos/numbers")
        #expect(returning.list("numbers")?.demo.selection?.items == ["n2", "n4"])
        #expect(returning.list("numbers")?.version == version, "restored, not changed")
        #expect(page.text.contains(#"name="items" value="n2" aria-label="Select n2" checked>"#))
        #expect(page.text.contains(#"name="items" value="n3" aria-label="Select n3">"#))
        #expect(page.text.contains(#"data-select-url="/demos/numbers/select""#))
        // Without JavaScript: n2 unticked, n3 ticked, of the page's n1…n5.
        let form = await returning.send(.post, "/demos/numbers/select",
                                        form: "page=1&items=n3&items=n4&shown=n1&shown=n2&shown=n3&shown=n4&shown=n5")
        #expect(form.status == .seeOther && form.headers["Location"] == "/demos/numbers?page=1")
        #expect(returning.list("numbers")?.demo.selection?.items == ["n4", "n3"])
    }
}
