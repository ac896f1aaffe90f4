import DiffableDataSources
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The Outline demo (Apple's outline sample on our SectionSnapshot) over real sockets:
/// expand and collapse through the data source's handlers, children loaded lazily, the
/// changeset stream, reconnects, and refusals that change nothing.
@Suite("Live outline: expand and collapse through the data source's handlers, children load lazily, state survives reconnects", .stopsLiveServers)
struct LiveOutlineTests {
    static let catalog: MountainCatalog = (try? MountainCatalog.bundled()) ?? MountainCatalog(mountains: [])
    static let tree = HeightOutline(catalog: catalog)

    func start() async throws -> (LiveServer, String) {
        let live = try await LiveServer.start { $0.demos = [try Outline.descriptor(catalog: Self.catalog)] }
        return (live, try await live.newSession("/demos/outline"))
    }

    func list(_ live: LiveServer, _ cookie: String) throws -> LiveList {
        try #require(live.app.sessionList(cookie: cookie, demo: "outline"))
    }

    func demo(_ live: LiveServer, _ cookie: String) throws -> WebListDemo<Outline> {
        try #require(try list(live, cookie).demo as? WebListDemo<Outline>)
    }

    func items(_ live: LiveServer, _ cookie: String) throws -> [String] {
        try list(live, cookie).dataSource.snapshot().itemIdentifiers
    }

    func children(_ id: String) throws -> [String] { try #require(Self.tree.node(id)).children }

    func version(of response: HTTPResponse) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return try #require(object?["version"] as? Int)
    }

    /// The next event whose version is at least `version` (an earlier one, such as the demo's
    /// own first apply of its outline, is skipped).
    func event(_ stream: inout EventReader, atLeast version: Int) async throws -> SSEEvent {
        while true {
            let event = try await next(&stream)
            if let seen = event.json["version"] as? Int, seen >= version { return event }
        }
    }

    @Test("the tree is the catalog by height: three levels, real mountains, every mountain once, highest first")
    func treeFromCatalog() throws {
        let tree = Self.tree
        #expect(tree.roots.first == "h8000-8999" && tree.roots.last == "h0-999")
        #expect(!tree.roots.contains("h3000-3999"), "the catalog has no mountain from 3,000 to 3,999 m: no empty band")
        let band = try #require(tree.node("h8000-8999"))
        #expect(band.label == "8,000–8,999 m" && band.level == 1 && band.children.first == "h8800-8899")
        let range = try #require(tree.node("h8800-8899"))
        #expect(range.level == 2 && range.parent == "h8000-8999" && range.children == ["m0001"])
        let everest = try #require(tree.node("m0001"))
        #expect(everest.label == "Mount Everest" && everest.detail == "8,848 m" && everest.level == 3 && everest.parent == "h8800-8899")
        var mountains: [String] = []
        for root in tree.roots {
            for rangeID in try children(root) {
                let heights = try children(rangeID).map { try #require(tree.node($0)).height }
                #expect(heights == heights.sorted(by: >), "\(rangeID): highest first")
                mountains += try children(rangeID)
            }
        }
        #expect(mountains.count == Self.catalog.mountains.count && Set(mountains) == Set(Self.catalog.mountains.map(\.id)))
    }

    @Test("expand loads the children on first expand only (snapshotForExpandingParent); collapse hides them; the handlers run")
    func expandCollapseLazily() async throws {
        let (live, cookie) = try await start()
        let roots = Self.tree.roots
        #expect(try items(live, cookie) == roots, "the first snapshot holds the top level only")
        let outlineBefore = try list(live, cookie).dataSource.snapshot(for: Outline.section)
        #expect(!outlineBefore.contains("h8800-8899"), "children are not loaded before the first expand")

        let expand = try await live.postJSON("/demos/outline/actions/expand", #"{"item":"h8000-8999"}"#, cookie: cookie)
        #expect(expand.status == 200)
        let bands = try children("h8000-8999")
        #expect(try items(live, cookie) == [roots[0]] + bands + roots.dropFirst())
        let demo = try demo(live, cookie)
        #expect(demo.current.counts == .init(shouldExpand: 1, willExpand: 1, shouldCollapse: 0, willCollapse: 0, loads: 1, reuses: 0))
        #expect(demo.current.expanded == ["h8000-8999"])
        let outline = try list(live, cookie).dataSource.snapshot(for: Outline.section)
        #expect(outline.isExpanded("h8000-8999") && !outline.contains("m0001"), "one level at a time: the mountains wait for their band")

        // Expanding what is expanded changes nothing and asks nobody.
        let version = try list(live, cookie).version
        #expect(try await live.postJSON("/demos/outline/actions/expand", #"{"item":"h8000-8999"}"#, cookie: cookie).status == 200)
        #expect(try list(live, cookie).version == version && demo.current.counts.shouldExpand == 1)

        let collapse = try await live.postJSON("/demos/outline/actions/collapse", #"{"item":"h8000-8999"}"#, cookie: cookie)
        #expect(collapse.status == 200)
        #expect(try items(live, cookie) == roots)
        #expect(demo.current.counts.shouldCollapse == 1 && demo.current.counts.willCollapse == 1 && demo.current.expanded.isEmpty)
        #expect(try list(live, cookie).dataSource.snapshot(for: Outline.section).contains("h8800-8899"), "collapsed children stay loaded")

        // toggle: expands again, reusing the loaded children.
        #expect(try await live.postJSON("/demos/outline/actions/toggle", #"{"item":"h8000-8999"}"#, cookie: cookie).status == 200)
        #expect(try items(live, cookie) == [roots[0]] + bands + roots.dropFirst())
        #expect(demo.current.counts.loads == 1 && demo.current.counts.reuses == 1 && demo.current.counts.willExpand == 2)
    }

    @Test("a sidebar: a focus selects without the primary action, a tap on a band selects and toggles it, didSelect shows the row")
    func selectionFollowsFocus() async throws {
        let (live, cookie) = try await start()
        func tap(_ body: String) async throws -> [String: Any] {
            let response = try await live.postJSON("/demos/outline/select", body, cookie: cookie)
            #expect(response.status == 200, "\(body): \(response.text)")
            return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        }
        func selected(_ answer: [String: Any]) -> [String]? { (answer["selection"] as? [String: Any])?["items"] as? [String] }
        func pane() throws -> String { try demo(live, cookie).pageValues()["shownTitle"] ?? "" }
        #expect(try pane() == "Nothing selected")

        // A focus move (an arrow key) selects the band and shows it, but does not expand it.
        let focused = try await tap(#"{"item":"h7000-7999","focus":true,"seq":1}"#)
        #expect(selected(focused) == ["h7000-7999"])
        #expect((focused["selection"] as? [String: Any])?["followsFocus"] as? Bool == true, "the wire says the focus selects")
        #expect(try items(live, cookie) == Self.tree.roots, "no primary action: nothing expanded")
        #expect(try pane() == "7,000–7,999 m")

        // A tap (a click, Return) on a band selects it and toggles it: its children follow it.
        let tapped = try await tap(#"{"item":"h8000-8999","seq":2}"#)
        #expect(selected(tapped) == ["h8000-8999"])
        #expect(try Array(items(live, cookie).prefix(1 + children("h8000-8999").count)) == ["h8000-8999"] + children("h8000-8999"))
        #expect(try demo(live, cookie).current.expanded == ["h8000-8999"])
        _ = try await tap(#"{"item":"h8800-8899","seq":3}"#)
        #expect(try items(live, cookie).contains("m0001"), "a second level opens the same way")

        // A mountain's primary action is its selection alone; the pane names it.
        let everest = try await tap(#"{"item":"m0001","focus":true,"seq":4}"#)
        #expect(selected(everest) == ["m0001"])
        _ = try await tap(#"{"item":"m0001","seq":5}"#)
        #expect(try pane() == "Mount Everest")
        #expect(try demo(live, cookie).pageValues()["shownSummary"] == "8,848 m · in 8,800–8,899 m")
        #expect(try demo(live, cookie).current.expanded == ["h8000-8999", "h8800-8899"])

        // A tap on an open band closes it (its descendants leave, and the selection with them).
        _ = try await tap(#"{"item":"h8000-8999","seq":6}"#)
        #expect(try items(live, cookie) == Self.tree.roots)
        #expect(try !demo(live, cookie).current.expanded.contains("h8000-8999"), "closed (its open child keeps its state, as UIKit's)")

        // A script's selection calls no didSelect: the pane stays on the row a person chose.
        let share = try #require(live.app.shareID(cookie: cookie))
        let scripted = try await live.postJSON("/api/sessions/\(share)/demos/outline/selection", #"{"items":["h6000-6999"]}"#)
        #expect(scripted.status == 200)
        #expect(try pane() == "8,000–8,999 m", "the last row a person selected")
        let unknown = try await live.postJSON("/demos/outline/select", #"{"item":"m9999","focus":true,"seq":7}"#, cookie: cookie)
        #expect(unknown.status == 404, "an item the outline does not show: \(unknown.text)")
    }

    @Test("the API's action route expands three levels deep; the snapshot's data says level, parent and expanded")
    func apiRoute() async throws {
        let (live, cookie) = try await start()
        let share = try #require(live.app.shareID(cookie: cookie))
        let base = "/api/sessions/\(share)/demos/outline"
        for item in ["h8000-8999", "h8800-8899"] {
            let response = try await live.postJSON("\(base)/actions/expand", #"{"item":"\#(item)"}"#)
            #expect(response.status == 200, "\(item): \(response.text)")
        }
        let body = try await get(port: live.port, "\(base)/snapshot")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.body)) as? [String: Any])
        let section = try #require((json["sections"] as? [[String: Any]])?.first)
        let rows = try #require(section["items"] as? [[String: Any]])
        let ids = rows.compactMap { $0["id"] as? String }
        #expect(Array(ids.prefix(3)) == ["h8000-8999", "h8800-8899", "m0001"], "a band, its first 100-m band, Everest")
        let data = rows.compactMap { $0["data"] as? [String: String] }
        #expect(data[0]["expanded"] == "true" && data[0]["level"] == "1")
        #expect(data[1]["expanded"] == "true" && data[1]["level"] == "2" && data[1]["parent"] == "h8000-8999")
        #expect(data[2]["level"] == "3" && data[2]["height"] == "8848" && data[2]["label"] == "Mount Everest" && data[2]["expanded"] == nil)
        #expect(data[3]["expanded"] == "false" && data[3]["level"] == "2", "the next 100-m band is collapsed")
        let collapse = try await live.postJSON("\(base)/actions/collapse", #"{"item":"h8000-8999"}"#)
        #expect(collapse.status == 200)
        #expect(try items(live, cookie) == Self.tree.roots)
    }

    @Test("bad input is refused with a clear error naming the item, and nothing changes",
          arguments: [
              (#"{"item":"h9999-9999"}"#, "expand", 422, "unknown_items", "h9999-9999"),
              (#"{"item":"m0001"}"#, "expand", 422, "not_in_outline", "Mount Everest"),
              (#"{"item":"h8800-8899"}"#, "toggle", 422, "not_in_outline", "8,800–8,899 m"),
              (#"{}"#, "expand", 400, "missing_parameter", "item"),
              (#"{"item":"h8000-8999"}"#, "fold", 404, "unknown_action", "fold"),
          ])
    func refusals(body: String, action: String, status: Int, code: String, names: String) async throws {
        let (live, cookie) = try await start()
        _ = try await live.postJSON("/demos/outline/actions/expand", #"{"item":"h7000-7999"}"#, cookie: cookie)
        let before = try list(live, cookie).dataSource.versionedSnapshot()
        let response = try await live.postJSON("/demos/outline/actions/\(action)", body, cookie: cookie)
        #expect(response.status == status)
        #expect(response.text.contains(#""error":"\#(code)""#) && response.text.contains(names), "\(response.text)")
        let after = try list(live, cookie).dataSource.versionedSnapshot()
        #expect(after.version == before.version && after.snapshot.itemIdentifiers == before.snapshot.itemIdentifiers)
    }

    @Test("a script that replaces the section through the snapshot API leaves no outline: expand is a 422 that says so")
    func replacedThroughTheAPI() async throws {
        let (live, cookie) = try await start()
        let share = try #require(live.app.shareID(cookie: cookie))
        let base = "/api/sessions/\(share)/demos/outline"
        #expect(try await live.postJSON("\(base)/actions/expand", #"{"item":"h8000-8999"}"#).status == 200)
        let put = try await live.send("PUT", "\(base)/snapshot", json: #"{"sections":[{"id":"outline","items":["h8000-8999","h7000-7999"]}]}"#)
        #expect(put.status == 200, "\(put.text)")
        let version = try list(live, cookie).version
        let response = try await live.postJSON("\(base)/actions/expand", #"{"item":"h7000-7999"}"#)
        #expect(response.status == 422 && response.text.contains("not_in_outline") && response.text.contains("replaced"), "\(response.text)")
        #expect(try list(live, cookie).version == version && items(live, cookie) == ["h8000-8999", "h7000-7999"])
    }

    @Test("shouldExpandItem refuses a mountain: 422 not_expandable, the handler asked, willExpandItem not called, nothing applied")
    func shouldExpandRefusesMountains() async throws {
        let (live, cookie) = try await start()
        for item in ["h8000-8999", "h8800-8899"] {
            #expect(try await live.postJSON("/demos/outline/actions/expand", #"{"item":"\#(item)"}"#, cookie: cookie).status == 200)
        }
        let demo = try demo(live, cookie)
        let counts = demo.current.counts
        let version = try list(live, cookie).version
        let response = try await live.postJSON("/demos/outline/actions/expand", #"{"item":"m0001"}"#, cookie: cookie)
        #expect(response.status == 422 && response.text.contains("not_expandable") && response.text.contains("Mount Everest"))
        #expect(demo.current.counts.shouldExpand == counts.shouldExpand + 1, "the data source asked shouldExpandItem")
        #expect(demo.current.counts.willExpand == counts.willExpand, "and, refused, went no further")
        #expect(try list(live, cookie).version == version)
    }

    @Test("SSE: expand inserts the children as one run after their parent, then reconfigures the parent; collapse deletes them")
    func changesetStream() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("/demos/outline/events?width=1000&height=900&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        let bands = try children("h7000-7999")

        let expand = try await live.postJSON("/demos/outline/actions/expand", #"{"item":"h7000-7999"}"#, cookie: cookie)
        let expanded = try version(of: expand)
        let inserted = try await event(&stream, atLeast: expanded - 1)
        #expect(inserted.name == "changeset" && inserted.json["animated"] as? Bool == true)
        let runs = try #require(inserted.json["inserted"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["ids"] as? [String] == bands && runs.first?["index"] as? Int == 2, "right after the second band")
        #expect((inserted.json["deleted"] as? [Any])?.isEmpty == true)
        let cells = (inserted.json["cells"] as? [[String: Any]]) ?? []
        #expect(cells.contains { $0["id"] as? String == bands[0] && ($0["html"] as? String)?.contains(#"data-level="2""#) == true })
        // The parent's row now says it is expanded: updated in place (a reconfigure, not a reload).
        let reconfigured = try await event(&stream, atLeast: expanded)
        let updated = try #require((reconfigured.json["updated"] as? [[String: Any]])?.first)
        #expect(updated["id"] as? String == "h7000-7999" && updated["reload"] as? Bool == false)
        #expect((updated["html"] as? String)?.contains(#"aria-expanded="true""#) == true)
        #expect((reconfigured.json["inserted"] as? [Any])?.isEmpty == true)

        let collapse = try await live.postJSON("/demos/outline/actions/collapse", #"{"item":"h7000-7999"}"#, cookie: cookie)
        let collapsed = try version(of: collapse)
        let deleted = try await event(&stream, atLeast: collapsed - 1)
        #expect(deleted.json["deleted"] as? [String] == bands)
        let parent = try await event(&stream, atLeast: collapsed)
        #expect(((parent.json["updated"] as? [[String: Any]])?.first?["html"] as? String)?.contains(#"aria-expanded="false""#) == true)
        stream.socket.close()
    }

    @Test("the disclosure state lives on the server: a new stream, a replay after Last-Event-ID, and a page load all show it")
    func reconnectKeepsState() async throws {
        let (live, cookie) = try await start()
        for item in ["h8000-8999", "h8600-8699"] {
            #expect(try await live.postJSON("/demos/outline/actions/expand", #"{"item":"\#(item)"}"#, cookie: cookie).status == 200)
        }
        let expectedOrder = try items(live, cookie)
        #expect(expectedOrder.contains("m0002"), "K2 is shown")

        var first = try await live.events("/demos/outline/events?width=1000&height=900&top=0", cookie: cookie)
        let snapshot = try await next(&first)
        let sections = try #require(snapshot.json["sections"] as? [[String: Any]])
        #expect(sections.first?["items"] as? [String] == expectedOrder)
        let html = ((snapshot.json["cells"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == "h8600-8699" }?["html"] as? String
        #expect(html?.contains(#"data-expanded="true""#) == true)
        let lastID = try #require(snapshot.id)
        first.socket.close()

        // Collapsed while disconnected: the reconnecting stream replays the deletes.
        #expect(try await live.postJSON("/demos/outline/actions/collapse", #"{"item":"h8600-8699"}"#, cookie: cookie).status == 200)
        var second = try await live.events("/demos/outline/events?width=1000&height=900&top=0", cookie: cookie, lastEventID: lastID)
        let replayed = try await next(&second)
        #expect(replayed.name == "changeset")
        #expect((replayed.json["deleted"] as? [String])?.contains("m0002") == true)
        second.socket.close()

        // A page load renders the rows as the data source has them.
        let page = try await get(port: live.port, "/demos/outline", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(page.text.contains(#"data-id="h8600-8699""#) && !page.text.contains(#"data-id="m0002""#))
        #expect(page.text.contains(#"<button type="submit" aria-expanded="true" aria-label="8,000–8,999 m">"#))
    }

    @Test("without JavaScript: a row's disclosure form posts and redirects to the page, which shows the children")
    func formPost() async throws {
        let (live, cookie) = try await start()
        let page = try await get(port: live.port, "/demos/outline", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(page.text.contains(#"<form class="disclosure" method="post" action="/demos/outline/actions/expand""#))
        let response = try await post(port: live.port, "/demos/outline/actions/expand", body: Array("item=h6000-6999".utf8),
                                      headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "dw_session=\(cookie)"])
        #expect(response.status == 303 && response.header("Location") == "/demos/outline")
        let after = try await get(port: live.port, "/demos/outline", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(after.text.contains(#"action="/demos/outline/actions/collapse" data-tree-action="collapse"><input type="hidden" name="item" value="h6000-6999">"#))
        #expect(try items(live, cookie).contains(try children("h6000-6999")[0]))
    }
}
