import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Sessions that outlive the process (issue 13, the embedded store): everything a client was
/// answered 2xx for is in SQLite, and a new app on the same directory brings it back.
@Suite("Live persistence: a restart keeps every session's lists, versions and demo state")
struct LivePersistenceTests {
    func items(_ visitor: Visitor, _ demo: String) -> [String] {
        visitor.list(demo)?.dataSource.snapshot().itemIdentifiers ?? []
    }

    @Test("numbers, a search, a like, a layout and an API operation survive a restart; versions continue")
    func restart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(first)
        await visitor.send(.get, "/demos/numbers")
        await visitor.send(.post, "/demos/numbers/actions/append", json: #"{"count":3}"#)
        await visitor.send(.post, "/demos/numbers/actions/reorder", json: #"{"item":"n2","to":4}"#)
        await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ben"}"#)
        await visitor.send(.post, "/demos/destinations/actions/like", json: #"{"post":"post-0002"}"#)
        await visitor.send(.post, "/demos/photos/actions/setLayout", json: #"{"layout":"grid"}"#)
        let cookie = try #require(visitor.cookie)
        let share = try #require(first.shareID(cookie: cookie))
        let operation = await first.handle(Request(method: .post, target: "/api/sessions/\(share)/demos/numbers/operations",
                                                   headers: ["Content-Type": "application/json"],
                                                   body: Array(#"{"operations":[{"op":"moveItem","item":"n8","beforeItem":"n1"}]}"#.utf8)))
        #expect(operation.status == .ok)
        let numbers = items(visitor, "numbers"), numbersVersion = visitor.list("numbers")?.version
        let mountains = items(visitor, "mountains"), mountainsVersion = visitor.list("mountains")?.version
        #expect(numbers.first == "n8" && numbers.count == 8 && mountains.count > 0 && mountains.count < 100)
        // Nothing to flush: every acknowledged change (a search too) was saved before its answer.

        let second = try await makeApp { $0.stateDirectory = directory.path }
        let returning = Visitor(second)
        returning.cookie = visitor.cookie
        let page = await returning.send(.get, "/demos/numbers")
        #expect(page.sessionCookie == nil, "the same session, not a new one")
        #expect(items(returning, "numbers") == numbers && returning.list("numbers")?.version == numbersVersion)
        await returning.send(.get, "/demos/mountains")
        #expect(items(returning, "mountains") == mountains && returning.list("mountains")?.version == mountainsVersion)
        #expect(returning.list("mountains")?.demo.pageValues()["query"] == "ben")
        await returning.send(.get, "/demos/destinations")
        #expect(returning.list("destinations")?.demo.data(for: "post-0002")?["liked"] == "true")
        let photos = await returning.send(.get, "/demos/photos")
        #expect(photos.text.contains(#"<input type="hidden" name="layout" value="grid"><button type="submit" data-state-key="layout" data-state-value="grid" aria-pressed="true">"#))
        #expect(photos.text.components(separatedBy: #"aria-pressed="true""#).count == 2, "one layout pressed")
        // The script's share id names it too, and versions go on from where they were.
        let snapshot = await second.handle(Request(method: .get, target: "/api/sessions/\(share)/demos/numbers/snapshot"))
        #expect(snapshot.json?["version"] as? Int == numbersVersion)
        await returning.send(.post, "/demos/numbers/actions/append", json: "{}")
        #expect(returning.list("numbers")?.version == (numbersVersion ?? 0) + 1)
        #expect(items(returning, "numbers").last == "n9", "the next number is remembered")
    }

    @Test("an operation is on disk when it is answered; a search too, as its query (the list is a function of it)")
    func durability() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path }
        let store = try SQLiteSessionStore(directory: directory.path)
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: #"{"count":2}"#)
        let id = try #require(visitor.cookie.flatMap(SessionID.init))
        let numbers = ListKey(session: id, demo: "numbers"), mountains = ListKey(session: id, demo: "mountains")
        #expect(try await store.list(numbers)?.sections.first?.items.count == 7, "saved before the answer")
        for query in ["k", "k2"] { await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"\#(query)"}"#) }
        let saved = try #require(try await store.list(mountains))
        #expect(saved.derived && saved.state["query"] == "k2" && saved.sections.isEmpty && saved.version == visitor.list("mountains")?.version,
                "saved before the answer, as its query: \(saved)")
    }

    @Test("the Mountains list is saved as its query and computed again on a restart; a script's PUT makes it an ordinary list, saved as its items")
    func derivedList() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(first)
        await visitor.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ben"}"#)
        let id = try #require(visitor.cookie.flatMap(SessionID.init))
        let key = ListKey(session: id, demo: "mountains")
        let store = try SQLiteSessionStore(directory: directory.path)
        let searched = items(visitor, "mountains")
        #expect(searched.count > 10 && searched.count < 1_000)
        #expect(try await store.list(key)?.derived == true)

        // A restart computes the list again from the query, at the same version.
        let second = try await makeApp { $0.stateDirectory = directory.path }
        let returning = Visitor(second)
        returning.cookie = visitor.cookie
        await returning.send(.get, "/demos/mountains")
        #expect(items(returning, "mountains") == searched)
        #expect(returning.list("mountains")?.version == visitor.list("mountains")?.version)

        // A script's PUT: the items are the script's, no query describes them.
        let cookie = try #require(returning.cookie)
        let share = try #require(second.shareID(cookie: cookie))
        let put = await second.handle(Request(method: .put, target: "/api/sessions/\(share)/demos/mountains/snapshot",
                                              headers: ["Content-Type": "application/json"],
                                              body: Array(#"{"sections":[{"id":"main","items":["\#(searched[2])","\#(searched[0])"]}]}"#.utf8)))
        #expect(put.status == .ok, "\(put.text)")
        let list = try #require(returning.list("mountains"))
        #expect(list.demo.status(of: list.dataSource.snapshot()) == "2 mountains", "the status no longer quotes “ben”")
        #expect(list.demo.pageValues()["query"] == "")
        let saved = try #require(try await store.list(key))
        #expect(!saved.derived && saved.sections.first?.items == [searched[2], searched[0]])

        let third = try await makeApp { $0.stateDirectory = directory.path }
        let again = Visitor(third)
        again.cookie = visitor.cookie
        await again.send(.get, "/demos/mountains")
        #expect(items(again, "mountains") == [searched[2], searched[0]], "an ordinary list after the restart")
        await again.send(.post, "/demos/mountains/actions/search", json: #"{"query":"ben"}"#)
        #expect(items(again, "mountains") == searched, "a search makes it its query's again")
        #expect(try await store.list(key)?.derived == true)
    }

    @Test("an expired session is deleted from the store too")
    func expiry() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path; $0.sessionIdleTimeout = .seconds(60) }
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: "{}")
        let id = try #require(visitor.cookie.flatMap(SessionID.init))
        let store = try SQLiteSessionStore(directory: directory.path)
        #expect(try await store.session(id: id) != nil)
        #expect(app.sessions.sweep(now: .now + .seconds(120)) == 1)
        await app.sessions.lastStoreSweep?.value  // the sweep's store part: marks, then deletes
        #expect(try await store.session(id: id) == nil)
        #expect(try await store.list(ListKey(session: id, demo: "numbers")) == nil, "its lists go with it")
    }

    @Test("a change writes what it changed: a checkpoint only once the changes add up to the list; restores and replays match")
    func incremental() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(app)
        for _ in 0..<300 { await visitor.send(.post, "/demos/numbers/actions/append", json: "{}") }
        await visitor.send(.post, "/demos/numbers/actions/reorder", json: #"{"item":"n2","to":100}"#)
        let live = try #require(visitor.list("numbers"))
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("diffable-web.sqlite").path)
        let id = try #require(visitor.cookie)
        let head = try database.query("SELECT base_version FROM lists WHERE session_id = ? AND demo = 'numbers'", [.text(id)])
        let base = head.first?[0].integer ?? 0
        let stored = try await SQLiteSessionStore(directory: directory.path).list(ListKey(session: try #require(SessionID(id)), demo: "numbers"))
        #expect(stored?.version == live.version)
        let version = live.version
        // 301 changes of ~30 bytes on a list of up to 305 items: a checkpoint every ~4 KiB of
        // changes, so a few, not 301.
        #expect(base > 1 && base < version, "checkpointed now and then (at \(base) of \(version))")
        let changes = try database.query("SELECT count(*) FROM changes WHERE session_id = ? AND demo = 'numbers'", [.text(id)])
        #expect((changes.first?.first?.integer ?? 0) >= version - base)

        let second = try await makeApp { $0.stateDirectory = directory.path }
        let returning = Visitor(second)
        returning.cookie = visitor.cookie
        await returning.send(.get, "/demos/numbers")
        let restored = try #require(returning.list("numbers"))
        #expect(restored.dataSource.snapshot() == live.dataSource.snapshot() && restored.version == live.version)
        // The events before the restart are there to replay, under the same ids.
        let before = live.recentEvents.suffix(50).map { "\($0.id) \($0.name) \($0.data.text)" }
        let after = restored.recentEvents.suffix(50).map { "\($0.id) \($0.name) \($0.data.text)" }
        #expect(before == after)
        #expect(restored.epoch == live.epoch)
    }

    @Test("the outline's expanded rows survive a restart, without a new version; it goes on expanding and collapsing")
    func outline() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(first)
        await visitor.send(.get, "/demos/outline")
        for item in ["h8000-8999", "h8800-8899", "h7000-7999"] {
            let answer = await visitor.send(.post, "/demos/outline/actions/expand", json: #"{"item":"\#(item)"}"#)
            #expect(answer.status == .ok)
        }
        let rows = items(visitor, "outline"), version = visitor.list("outline")?.version
        #expect(rows.contains("h8800-8899") && rows.count > 20)

        let second = try await makeApp { $0.stateDirectory = directory.path }
        let returning = Visitor(second)
        returning.cookie = visitor.cookie
        await returning.send(.get, "/demos/outline")
        let list = try #require(returning.list("outline"))
        let outline = try #require(list.demo as? WebListDemo<Outline>)
        #expect(await eventually("the outline's first apply after it is restored expands its saved rows") {
            (try? list.dataSource.snapshot(for: Outline.section))?.isExpanded("h8800-8899") == true
        })
        #expect(items(returning, "outline") == rows && list.version == version, "the same rows at the same version")
        #expect(outline.current.expanded == ["h8000-8999", "h8800-8899", "h7000-7999"])
        let collapse = await returning.send(.post, "/demos/outline/actions/collapse", json: #"{"item":"h8000-8999"}"#)
        #expect(collapse.status == .ok && !items(returning, "outline").contains("h8800-8899"))
    }

    @Test("every demo's list is saved before its demo writes to it: none is retired, the store follows each")
    func everyDemoSavedFirst() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(app)
        let store = try SQLiteSessionStore(directory: directory.path)
        for demo in app.demos.map(\.name) {
            await visitor.send(.get, "/demos/\(demo)")
            let list = try #require(visitor.list(demo))
            let key = ListKey(session: try #require(visitor.cookie.flatMap(SessionID.init)), demo: demo)
            // The outline applies its tree when it is attached: that write must find the list saved.
            #expect(await eventually("the list's write when it is attached (the outline's tree) commits") {
                (try? await store.list(key))?.version == list.version
            }, "\(demo) is saved")
            #expect(!list.isRetired, "\(demo) was not retired")
        }
    }

    @Test("a store of schema version 1 (whole lists) is migrated and read")
    func migratesVersion1() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("diffable-web.sqlite").path)
        let session = SessionID.random(), share = SessionID.random()
        try database.execute("""
            CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);
            CREATE TABLE sessions (id TEXT PRIMARY KEY, share_id TEXT NOT NULL UNIQUE);
            CREATE TABLE lists (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                demo TEXT NOT NULL, version INTEGER NOT NULL, epoch TEXT NOT NULL,
                sections TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (session_id, demo));
            """)
        try database.run("INSERT INTO sessions VALUES (?, ?)", [.text(session.value), .text(share.value)])
        try database.run("INSERT INTO lists VALUES (?, 'numbers', 9, '00000000abcd', ?, '{\"next\":\"4\"}')",
                         [.text(session.value), .text(#"[{"id":"main","items":["n3","n1","n2"]}]"#)])
        let store = try SQLiteSessionStore(directory: directory.path)
        let list = try #require(try await store.list(ListKey(session: session, demo: "numbers")))
        #expect(list.version == 9 && list.epoch == "00000000abcd" && list.sections == [.init(id: "main", items: ["n3", "n1", "n2"])])
        #expect(try database.query("SELECT version FROM schema_version").first?.first?.integer == SQLiteSessionStore.schemaVersion)
    }

    @Test("a store written by a newer build is refused at start, naming the versions")
    func newerSchema() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("diffable-web.sqlite").path)
        try database.execute("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (99);")
        await #expect { try await makeApp { $0.stateDirectory = directory.path } } throws: { error in
            "\(error)".contains("schema version 99")
        }
    }
}
