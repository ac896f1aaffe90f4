import CompositionalLayout
import DiffableDataSources
import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

@Suite("Web: changeset events are proportional to the change")
struct ChangesetEventTests {
    @Test("a keystroke's shared part names only the ids the change touched: no frames, no HTML")
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
        #expect((body["moved"] as? [Any])?.isEmpty == true, "survivors keep their order: no moves")
        #expect(body["cells"] == nil && body["updated"] == nil && body["contentSize"] == nil, "the window is per stream")
        #expect(event.data.byteCount < 40 * deleted.count + 200)
    }

    @Test("sessions typing the same letters share one transition: its identifiers are written once, and each session's event is its own change")
    func sharedTransition() async throws {
        let app = try await makeApp()
        let visitors = [Visitor(app), Visitor(app), Visitor(app)]
        var events: [LoggedEvent] = []
        for (index, visitor) in visitors.enumerated() {
            await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ka"}"#)
            await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"kan"}"#)
            let list = try #require(visitor.list("mountains"))
            let event = try #require(list.recentEvents.last)
            #expect(payload(event)["version"] as? Int == list.version)
            #expect(payload(event)["status"] as? String == list.demo.status(of: list.dataSource.snapshot()))
            if index == 2 {
                // The third session's list was changed by a script first: it is not at "ka"'s
                // results, so its step is diffed on its own, and its event says what it saw.
                await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ka"}"#)
                let before = list.dataSource.snapshot()
                let first = try #require(before.itemIdentifiers.first)
                _ = try? list.dataSource.update { try $0.deleteItems([first]) }
                await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"kan"}"#)
                let own = try #require(list.recentEvents.last)
                let deleted = payload(own)["deleted"] as? [String] ?? []
                #expect(!deleted.contains(first), "\(first) was gone before the keystroke")
                #expect(own.data.shared.first !== events[0].data.shared.first)
            } else {
                events.append(event)
            }
        }
        #expect(events.count == 2)
        #expect(events[0].data.shared.count == 1 && events[0].data.shared.first === events[1].data.shared.first, "one write of the identifiers")
        #expect(payload(events[0])["deleted"] as? [String] == payload(events[1])["deleted"] as? [String])
        let ka = try #require(visitors[0].list("mountains")).dataSource.snapshot()
        #expect(ka.itemIdentifiers == Mountains(catalog: try MountainCatalog.bundled(), query: "kan").derivedSnapshot().itemIdentifiers)
    }

    @Test("inserted and moved ids carry their section and new index")
    func inserted() async throws {
        let app = try await makeApp()
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: "{}")
        await visitor.send(.post, "/demos/numbers/actions/move", json: #"{"from":0,"to":3}"#)
        let list = try #require(visitor.list("numbers"))
        let events = list.recentEvents.filter { $0.name == "changeset" }.map(payload)
        let inserted = try #require((events.first?["inserted"] as? [[String: Any]])?.first)
        #expect(inserted["ids"] as? [String] == ["n6"] && inserted["section"] as? String == "numbers" && inserted["index"] as? Int == 5)
        let moved = try #require((events.last?["moved"] as? [[String: Any]])?.first)
        #expect(moved["ids"] as? [String] == ["n1"] && moved["section"] as? String == "numbers" && moved["index"] as? Int == 3)
        #expect(list.dataSource.snapshot().itemIdentifiers == ["n2", "n3", "n4", "n1", "n5", "n6"])
    }

    /// A plain list of `count` numbers (a 28-px header, then 44-px rows) laid out 1000 × 500.
    static func numbersLayout(_ count: Int, deleting: Set<Int> = []) throws -> ListLayout {
        var snapshot = Snapshot<String, String>()
        try snapshot.appendSections(["numbers"])
        try snapshot.appendItems((1...count).filter { !deleting.contains($0) }.map { "n\($0)" })
        return ListLayout(snapshot: snapshot, layout: Numbers().layout(), container: LayoutContainer(width: 1000, height: 500))
    }

    @Test("a window costs one screen and its overscan, wherever it is in 100,000 items")
    func windowIsOneScreen() throws {
        let layout = try Self.numbersLayout(100_000)
        for top: Double in [0, 2_200_000, 4_399_560] {
            let window = StreamWindow(container: LayoutContainer(width: 1000, height: 500), top: top)
            let update = WindowUpdate(layout: layout, rect: window.rect, held: [:]) { _ in "" }
            let ids: [String] = update.cells.compactMap { cell -> String? in
                if case .entered(let entered) = cell { return entered.id }
                return nil
            }
            #expect(ids.count <= 1_500 / 44 + 3, "top \(top): \(ids.count) cells")
            #expect(!ids.isEmpty)
            let first = try #require(ids.first { $0.hasPrefix("n") })
            let number = try #require(Int(String(first.dropFirst())))
            let bottomOfFirst = Double(28 + number * 44)
            #expect(bottomOfFirst >= max(0, top - 500), "the window starts a screen above the viewport")
        }
    }

    /// A window 2,000 px down 1,000 numbers (`first`), then after `n3`, above it, is deleted
    /// (`second`, laid out as `after`; `n40`'s content changed).
    static func deleteAboveWindow() throws -> (window: StreamWindow, first: WindowUpdate, second: WindowUpdate, after: ListLayout) {
        let before = try numbersLayout(1_000)
        let window = StreamWindow(container: LayoutContainer(width: 1000, height: 500), top: 2_000)
        let first = WindowUpdate(layout: before, rect: window.rect, held: [:]) { "<b>\($0.id)</b>" }
        let after = try numbersLayout(1_000, deleting: [3])
        let second = WindowUpdate(layout: after, rect: window.rect, held: first.held, isDeleted: { $0 == "n3" },
                                  contentChange: { $0 == "n40" ? false : nil }) { "<b>\($0.id)</b>" }
        return (window, first, second, after)
    }

    @Test("after a delete above the window, held cells slide, one enters at the bottom, the deleted one is the client's own business")
    func windowAfterChange() throws {
        let (window, first, second, after) = try Self.deleteAboveWindow()
        let moved: [String] = second.cells.compactMap { cell -> String? in
            if case .moved(let id, _, _) = cell { return id }
            return nil
        }
        let entered: [WireCell] = second.cells.compactMap { cell -> WireCell? in
            if case .entered(let wire) = cell { return wire }
            return nil
        }
        #expect(Set(moved) == Set(first.held.keys).intersection(second.held.keys), "every held cell moved up one row")
        #expect(entered.count == 1 && entered.first?.html == "<b>\(entered.first?.id ?? "")</b>")
        #expect(second.left.count == 1, "the top cell slid out of the window")
        #expect(second.updated.map(\.id) == (second.held["n40"] != nil ? ["n40"] : []))
        let same = WindowUpdate(layout: after, rect: window.rect, held: second.held) { _ in "" }
        #expect(same.cells.isEmpty && same.left.isEmpty && same.updated.isEmpty, "nothing changed: nothing to send")
    }

    @Test("a held cell that moved sends only the parts of its frame that changed, in the window and as it leaves")
    func partialFrames() throws {
        let (_, first, second, after) = try Self.deleteAboveWindow()
        let tail = ChangesetEvent.windowTail(layout: after, update: second)
        let json = try #require(try JSONSerialization.jsonObject(with: Data("{\"version\":1".utf8 + tail)) as? [String: Any])
        let moved = (json["cells"] as? [[String: Any]] ?? []).filter { $0["html"] == nil }
        let left = json["left"] as? [[String: Any]] ?? []
        #expect(!moved.isEmpty && !left.isEmpty)
        for cell in moved + left {
            let id = try #require(cell["id"] as? String)
            let partial = try #require(cell["frame"] as? [String: Double])
            // One column, rows of one height: a delete above moves a row up, nothing else.
            #expect(Set(partial.keys) == ["y"], "\(id): \(partial)")
            let held = try #require(first.held[id]), now = try #require(after.cell(id)).frame
            #expect(partial["y"] == WireFrame(now).y && held.y != WireFrame(now).y)
        }
        let entered = (json["cells"] as? [[String: Any]] ?? []).filter { $0["html"] != nil }
        #expect(entered.allSatisfy { Set((($0["frame"] as? [String: Double]) ?? [:]).keys) == ["x", "y", "w", "h"] },
                "a cell new to the client has its whole frame")
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

    @Test("the hand-written JSON round-trips through JSONSerialization, tricky strings included",
          arguments: ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\u{1}", "<script>alert(1)</script>", "Ñúñez ⛰️ 山", ""])
    func jsonRoundTrip(text: String) throws {
        let cell = WireCell(id: text, kind: .item, section: "s\(text)", index: 3,
                            frame: WireFrame(LayoutRect(x: 10, y: 52.5, width: 316.67, height: 32)), html: "<span>\(text)</span>")
        var writer = JSONWriter()
        writer.raw("{\"cells\":"); writer.windowCells([.entered(cell), .moved(id: text, frame: cell.frame, from: WireFrame(LayoutRect(x: 10, y: 0, width: 300, height: 32)))])
        writer.raw(",\"updated\":"); writer.updates([WireUpdate(id: text, html: text, reload: true)])
        writer.raw(",\"inserted\":"); writer.runs([(text, 0, 4), ("b", 0, 5), ("c", 1, 0), ("d", 0, 9)]) { $0 == 0 ? "s" : "t" }
        writer.raw("}")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        let cells = decoded["cells"] as? [[String: Any]] ?? []
        #expect(cells.first?["id"] as? String == text && cells.first?["html"] as? String == "<span>\(text)</span>")
        #expect(cells.last?["html"] == nil && cells.last?["frame"] as? [String: Double] == ["y": 52.5, "w": 316.67], "only what changed")
        #expect((decoded["updated"] as? [[String: Any]])?.first?["html"] as? String == text)
        let runs = decoded["inserted"] as? [[String: Any]] ?? []
        #expect(runs.map { $0["index"] as? Int } == [4, 0, 9] && runs.map { $0["section"] as? String } == ["s", "t", "s"])
        #expect(runs.first?["ids"] as? [String] == [text, "b"], "consecutive indices of one section make one run")
        #expect(!writer.text.contains("<"), "< is escaped, so an event never closes a script element")
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
}
