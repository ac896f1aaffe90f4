import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb
import DiffableWebDemos

/// A list with UIKit's default selection settings (so entering editing deselects everything)
/// whose delete hook refuses `keep` (`canDelete`) and throws for `stuck`, and counts deletions.
private struct Roster: SelectableList, DeletableList, AccessorizedList {
    static let title = "Roster"
    static let cellTemplate = "cells/number"
    var deletions = 0
    enum Action: WebListAction { case none }
    struct Cell: Encodable { let id: String; let number: Int; let label: String; let pinned: Bool? }
    struct Stuck: Error {}

    func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot(["all": ["a", "b", "keep", "stuck"]]) }
    func cell(for item: String) -> Cell? { Cell(id: item, number: 1, label: "Row \(item)", pinned: nil) }
    mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {}
    func canDelete(_ item: String) -> Bool { item != "keep" }
    mutating func delete(_ item: String, from list: inout Snapshot<String, String>) throws {
        if item == "stuck" { throw Stuck() }
        try list.deleteItems([item])
        deletions += 1
    }
    func accessories(for item: String) -> [CellAccessory] {
        [.reorder(), .disclosureIndicator(), .label("L<\(item)>"), .multiselect(), .checkmark(displayed: .whenNotEditing)]
            + (canDelete(item) ? [.delete()] : [])
    }
    func details(of list: Snapshot<String, String>) -> String { "\(deletions) deleted" }
}

/// Editing mode (docs/protocol.md, "Editing"): the selection's `isEditing`, set over the API and
/// the page, streamed, trimmed per UIKit, saved; and one item deleted through the list's hook.
@Suite("Live editing: isEditing travels with the selection; delete-item goes through the list's hook", .stopsLiveServers)
struct LiveEditingTests {
    func session(_ live: LiveServer) async throws -> String {
        try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
    }

    func selection(_ json: [String: Any]) -> [String: Any]? { json["selection"] as? [String: Any] }

    func items(_ live: LiveServer, _ id: String, _ demo: String) async throws -> (version: Int?, items: [String]) {
        let snapshot = object(try await get(port: live.port, "/api/sessions/\(id)/demos/\(demo)/snapshot"))
        let sections = snapshot["sections"] as? [[String: Any]] ?? []
        let items = sections.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        return (snapshot["version"] as? Int, items)
    }

    @Test("set over the API: the answer and the next changeset carry editing; multiple selection during editing keeps the selection, leaving trims it to the first")
    func editingOverTheAPI() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let base = "/api/sessions/\(id)/demos/editing"
        var stream = try await live.events("\(base)/events?width=600&height=800", cookie: nil)
        let first = try await next(&stream)
        #expect(selection(first.json)?["editing"] as? Bool == false)
        #expect(object(try await get(port: live.port, "\(base)/editing"))["editing"] as? Bool == false)
        _ = try await live.postJSON("\(base)/selection", #"{"items":["c-ada"]}"#)
        _ = try await next(&stream)

        // A member the request does not name is ignored (docs/protocol.md), as the document says.
        let on = try await live.postJSON("\(base)/editing", #"{"editing":true,"£":[],"note":{"x":{"y":true}}}"#)
        #expect(on.status == 200 && object(on)["editing"] as? Bool == true)
        #expect(selection(object(on))?["items"] as? [String] == ["c-ada"], "allowsMultipleSelectionDuringEditing keeps it")
        let event = try await next(&stream)
        #expect(event.name == "changeset" && selection(event.json)?["editing"] as? Bool == true)
        #expect(selection(event.json)?["multiple"] as? Bool == true && event.json["animated"] as? Bool == false)
        #expect(object(try await get(port: live.port, "\(base)/editing"))["editing"] as? Bool == true)

        _ = try await live.postJSON("\(base)/selection", #"{"select":["c-alan","c-grace"]}"#)
        _ = try await next(&stream)
        let off = try await live.postJSON("\(base)/editing", #"{"editing":false}"#)
        #expect(selection(object(off))?["items"] as? [String] == ["c-ada"], "single selection again: the first selected stays")
        let left = try await next(&stream)
        #expect(selection(left.json)?["editing"] as? Bool == false && selection(left.json)?["items"] as? [String] == ["c-ada"])

        // The same request again changes nothing: no new version.
        let again = try await live.postJSON("\(base)/editing", #"{"editing":false}"#)
        #expect(object(again)["version"] as? Int == object(off)["version"] as? Int)
        stream.socket.close()
    }

    @Test("with UIKit's defaults, entering editing deselects everything and selection is not allowed")
    func defaultsDeselect() async throws {
        let live = try await LiveServer.start { $0.demos = [try Roster.descriptor()] }
        let id = try await session(live)
        let base = "/api/sessions/\(id)/demos/roster"
        _ = try await live.postJSON("\(base)/selection", #"{"items":["b"]}"#)
        let on = object(try await live.postJSON("\(base)/editing", #"{"editing":true}"#))
        #expect(selection(on)?["items"] as? [String] == [] && selection(on)?["allowed"] as? Bool == false)
        let refused = object(try await live.postJSON("\(base)/selection", #"{"items":["a"]}"#))
        #expect(selection(refused)?["items"] as? [String] == [], "nothing is selected while selection is not allowed")
    }

    @Test("two tabs of one session: both streams get editing as it changes")
    func twoTabs() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/editing")
        var one = try await live.events("/demos/editing/events?width=600&height=800", cookie: cookie)
        var two = try await live.events("/demos/editing/events?width=390&height=800", cookie: cookie)
        _ = try await next(&one)
        _ = try await next(&two)
        let on = try await live.postJSON("/demos/editing/editing", #"{"editing":true,"seq":1}"#, cookie: cookie)
        #expect(on.status == 200)
        for stream in [one, two] {
            var stream = stream
            let event = try await next(&stream)
            #expect(event.name == "changeset" && selection(event.json)?["editing"] as? Bool == true)
        }
        let stale = try await live.postJSON("/demos/editing/editing", #"{"editing":false,"seq":1}"#, cookie: cookie)
        #expect(object(stale)["editing"] as? Bool == true, "a stale seq is ignored")
        one.socket.close()
        two.socket.close()
    }

    @Test("delete-item deletes exactly that item, animated, through the list's hook")
    func deleteItem() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let base = "/api/sessions/\(id)/demos/editing"
        var stream = try await live.events("\(base)/events?width=600&height=800", cookie: nil)
        _ = try await next(&stream)
        let before = try await items(live, id, "editing")
        let answer = try await live.postJSON("\(base)/delete-item", #"{"item":"c-grace"}"#)
        #expect(answer.status == 200 && object(answer)["deleted"] as? String == "c-grace")
        #expect(object(answer)["version"] as? Int == (before.version ?? 0) + 1)
        let event = try await next(&stream)
        #expect(event.json["deleted"] as? [String] == ["c-grace"] && event.json["animated"] as? Bool == true)
        #expect((event.json["inserted"] as? [Any] ?? []).isEmpty)
        let after = try await items(live, id, "editing")
        #expect(after.items == before.items.filter { $0 != "c-grace" })
        let details = object(try await get(port: live.port, "/api/sessions/\(id)"))["demos"] as? [[String: Any]]
        #expect(details?.first { $0["name"] as? String == "editing" }?["details"] as? String == "1 deleted", "the list's own delete ran")
        stream.socket.close()
    }

    @Test("refusals change nothing", arguments: [
        ("roster", #"{"item":"zz"}"#, 404, "unknown_item"),
        ("roster", #"{"item":"keep"}"#, 422, "deletion_not_allowed"),
        ("roster", #"{"item":"stuck"}"#, 422, "deletion_not_allowed"),
        ("roster", #"{}"#, 400, "missing_parameter"),
        ("roster", #"{"item":5}"#, 400, "malformed_json"),
        ("editing", #"{"item":"c-me"}"#, 422, "deletion_not_allowed"),
        ("photos", #"{"item":"p001"}"#, 404, "not_deletable"),
    ])
    func refused(demo: String, body: String, status: Int, code: String) async throws {
        let live = try await LiveServer.start { $0.demos = try BuiltInDemos.table() + [try Roster.descriptor()] }
        let id = try await session(live)
        let before = try await items(live, id, demo)
        let response = try await live.postJSON("/api/sessions/\(id)/demos/\(demo)/delete-item", body)
        #expect(response.status == status && object(response)["error"] as? String == code)
        let after = try await items(live, id, demo)
        #expect(after.version == before.version && after.items == before.items)
    }

    @Test("editing needs a boolean, and a list with selection")
    func editingRefusals() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let missing = try await live.postJSON("/api/sessions/\(id)/demos/editing/editing", #"{"editing":"yes"}"#)
        #expect(missing.status == 400)
        let none = try await live.postJSON("/api/sessions/\(id)/demos/editing/editing", #"{}"#)
        #expect(none.status == 400 && object(none)["error"] as? String == "invalid_parameter")
        let photos = try await live.postJSON("/api/sessions/\(id)/demos/photos/editing", #"{"editing":true}"#)
        #expect(photos.status == 404 && object(photos)["error"] as? String == "not_selectable")
    }

    @Test("a reconnect with Last-Event-ID replays editing")
    func reconnect() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/editing")
        var stream = try await live.events("/demos/editing/events?width=600&height=800", cookie: cookie)
        let snapshot = try await next(&stream)
        stream.socket.close()
        _ = try await live.postJSON("/demos/editing/editing", #"{"editing":true,"seq":1}"#, cookie: cookie)
        var again = try await live.events("/demos/editing/events?width=600&height=800", cookie: cookie, lastEventID: snapshot.id)
        let replayed = try await next(&again)
        #expect(replayed.name == "changeset" && selection(replayed.json)?["editing"] as? Bool == true)
        again.socket.close()
    }

    @Test("editing survives a restart on the SQLite store; the page's no-JavaScript form sets it (303) and the page shows it")
    func restart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(first)
        let page = await visitor.send(.get, "/demos/editing")
        #expect(page.text.contains(#"name="editing" value="true""#) && !page.text.contains("data-editing "))
        let form = await visitor.send(.post, "/demos/editing/editing", form: "editing=true")
        #expect(form.status == .seeOther && form.headers["Location"] == "/demos/editing")
        #expect(visitor.list("editing")?.demo.selection?.editing == true)
        let version = visitor.list("editing")?.version

        let second = try await makeApp { $0.stateDirectory = directory.path }
        let returning = Visitor(second)
        returning.cookie = visitor.cookie
        let again = await returning.send(.get, "/demos/editing")
        #expect(returning.list("editing")?.demo.selection?.editing == true)
        #expect(returning.list("editing")?.version == version, "restored, not changed")
        #expect(again.text.contains(" data-editing ") && again.text.contains(#"aria-pressed="true" aria-controls="list">Done</button>"#))
        #expect(again.text.contains(#"class="demo editing""#), "the body's editing class for the first paint")
        #expect(page.text.contains(#"<body data-demo="editing" class="demo" data-shows-state="card""#), "no class named after the list: the page's editing class is the mode's")
    }

    @Test("the page's delete-item: JSON answers, a form is 303 back")
    func pageDelete() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/editing")
        let answer = try await live.postJSON("/demos/editing/delete-item", #"{"item":"c-ken","seq":1}"#, cookie: cookie)
        #expect(answer.status == 200 && object(answer)["deleted"] as? String == "c-ken")
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "editing"))
        #expect(!list.dataSource.snapshot().contains(item: "c-ken"))
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.get, "/demos/editing")
        let form = await visitor.send(.post, "/demos/editing/delete-item", form: "item=c-tony")
        #expect(form.status == .seeOther && form.headers["Location"] == "/demos/editing")
        #expect(visitor.list("editing")?.dataSource.snapshot().contains(item: "c-tony") == false)
    }

    @Test("a detail accessory's tap runs accessoryButtonTapped: the card opens, from the page and a script; refusals change nothing")
    func detailAccessory() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/editing")
        let page = try await get(port: live.port, "/demos/editing", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(page.text.contains(#"data-detail-url="/demos/editing/detail-accessory""#))
        #expect(page.text.contains(#"data-selection-pattern="grid""#), "a row holds its detail button: the grid pattern")
        #expect(page.text.contains(#"data-accessory="detail""#))
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "editing"))
        func card() -> String? { list.demo.pageValues()["cardName"] }
        #expect(list.demo.pageValues()["card"] == "false")

        let version = list.version
        let tapped = try await live.postJSON("/demos/editing/detail-accessory", #"{"item":"c-ada","seq":1}"#, cookie: cookie)
        #expect(tapped.status == 200 && object(tapped)["item"] as? String == "c-ada", "\(tapped.text)")
        #expect(object(tapped)["version"] as? Int == version + 1, "the card is news: a version")
        #expect(card() == "Ada Lovelace")
        let again = try await live.postJSON("/demos/editing/detail-accessory", #"{"item":"c-ada","seq":2}"#, cookie: cookie)
        #expect(object(again)["version"] as? Int == version + 1, "the same card again changes nothing")

        let share = try #require(live.app.shareID(cookie: cookie))
        let base = "/api/sessions/\(share)/demos/editing"
        #expect(try await live.postJSON("\(base)/detail-accessory", #"{"item":"c-grace"}"#).status == 200)
        #expect(card() == "Grace Hopper")

        let unknown = try await live.postJSON("\(base)/detail-accessory", #"{"item":"c-nobody"}"#)
        #expect(unknown.status == 404 && object(unknown)["error"] as? String == "unknown_item")
        let missing = try await live.postJSON("\(base)/detail-accessory", #"{}"#)
        #expect(missing.status == 400 && object(missing)["error"] as? String == "missing_parameter")
        #expect(try await live.postJSON("\(base)/editing", #"{"editing":true}"#).status == 200)
        let editing = try await live.postJSON("\(base)/detail-accessory", #"{"item":"c-alan"}"#)
        #expect(editing.status == 422 && object(editing)["error"] as? String == "accessory_not_offered",
                "the detail button shows out of editing mode only")
        #expect(card() == "Grace Hopper", "refused: unchanged")
        let none = try await live.postJSON("/api/sessions/\(share)/demos/mountains/detail-accessory", #"{"item":"m0001"}"#)
        #expect(none.status == 404 && object(none)["error"] as? String == "no_accessories")

        #expect(try await live.postJSON("\(base)/actions/closeCard", "{}").status == 200)
        #expect(list.demo.pageValues()["card"] == "false")
    }

    @Test("a reorder across sections lands in the section of the row it was dropped on")
    func reorderAcrossSections() async throws {
        let live = try await LiveServer.start()
        let id = try await session(live)
        let base = "/api/sessions/\(id)/demos/editing"
        // Favorites: c-me, c-ada, c-grace, c-alan; Others from position 4 (c-edsger).
        let down = try await live.postJSON("\(base)/actions/reorder", #"{"item":"c-ada","to":5}"#)
        #expect(down.status == 200)
        var snapshot = object(try await get(port: live.port, "\(base)/snapshot"))["sections"] as? [[String: Any]]
        var others = (snapshot?[1]["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(others?.prefix(3) == ["c-edsger", "c-barbara", "c-ada"], "after the row it was dropped on, in Others")
        let up = try await live.postJSON("\(base)/actions/reorder", #"{"item":"c-tony","to":1}"#)
        #expect(up.status == 200)
        snapshot = object(try await get(port: live.port, "\(base)/snapshot"))["sections"] as? [[String: Any]]
        let favorites = (snapshot?[0]["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        others = (snapshot?[1]["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(favorites == ["c-me", "c-tony", "c-grace", "c-alan"] && others?.contains("c-tony") == false)
        let pinned = try await live.postJSON("\(base)/actions/reorder", #"{"item":"c-me","to":3}"#)
        #expect(pinned.status == 422, "My Card cannot be moved")
    }
}

/// ``CellAccessory``: UIKit's defaults, where each is shown, and the markup the renderer makes.
@Suite("Cell accessories: UIKit's defaults and the markup around a cell")
struct CellAccessoryTests {
    @Test("each kind's default displayed state is UIKit's", arguments: [
        (CellAccessory.delete(), CellAccessory.DisplayedState.whenEditing),
        (.reorder(), .whenEditing), (.multiselect(), .whenEditing),
        (.disclosureIndicator(), .always), (.checkmark(), .always), (.outlineDisclosure(), .always),
        (.label("3"), .always), (.detail(), .always), (.customView(template: "cells/x"), .always),
    ])
    func defaults(accessory: CellAccessory, displayed: CellAccessory.DisplayedState) {
        #expect(accessory.displayed == displayed)
    }

    @Test("visibility by editing state", arguments: [
        (CellAccessory.DisplayedState.always, false, true), (.always, true, true),
        (.whenEditing, false, false), (.whenEditing, true, true),
        (.whenNotEditing, false, true), (.whenNotEditing, true, false),
    ])
    func visibility(state: CellAccessory.DisplayedState, editing: Bool, visible: Bool) {
        #expect(CellAccessory(.checkmark, displayed: state).isVisible(editing: editing) == visible)
    }

    @Test("the renderer places them as UIKit's list cells do, escapes labels, names interactive ones, and adds the Delete confirmation",
          .stopsLiveServers)
    func markup() async throws {
        let live = try await LiveServer.start { $0.demos = [try Roster.descriptor()] }
        let cookie = try await live.newSession("/demos/roster")
        var stream = try await live.events("/demos/roster/events?width=600&height=800", cookie: cookie)
        let snapshot = try await next(&stream)
        stream.socket.close()
        let cells = snapshot.json["cells"] as? [[String: Any]] ?? []
        let html = try #require(cells.first { $0["id"] as? String == "a" }?["html"] as? String)
        func at(_ text: String) -> String.Index? { html.range(of: text)?.lowerBound }
        let order = [#"<span class="accessories leading">"#, #"data-accessory="delete" data-displayed="whenEditing""#,
                     #"data-accessory="multiselect""#, #"<span class="cell-content">"#, #"<span class="label">Row a</span>"#,
                     #"<span class="accessories trailing">"#, #"data-accessory="checkmark" data-displayed="whenNotEditing""#,
                     #"data-accessory="label""#, #"data-accessory="disclosureIndicator" data-displayed="always""#,
                     #"data-accessory="reorder""#, #"class="delete-confirm""#]
        let positions = order.map(at)
        #expect(positions.allSatisfy { $0 != nil }, "every part is there: \(html)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "in UIKit's order: \(html)")
        #expect(html.contains("L&lt;a&gt;"), "a label is text")
        #expect(html.contains(#"aria-label="Delete Row a""#) && html.contains(#"role="checkbox" aria-checked="false" aria-label="Select Row a""#))
        let keep = try #require(cells.first { $0["id"] as? String == "keep" }?["html"] as? String)
        #expect(!keep.contains(#"data-accessory="delete""#) && !keep.contains("delete-confirm"), "no delete where canDelete is false")
    }
}
