import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// The embedded store's group commit (issue 13): a list's writer goes on while its last change
/// commits, so events must still leave in version order and only once saved, and a change that
/// cannot be saved must never be shown or answered 2xx.
@Suite("Live store commits: concurrent writes stream in order once saved; an unsaved change is refused", .stopsLiveServers)
struct LiveStoreCommitTests {
    @Test("16 writers at once on one list: every answer is saved, the stream gets every version once and in order")
    func concurrentWritersInOrder() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = try await LiveServer.start { $0.stateDirectory = directory.path }
        let cookie = try await live.newSession("/demos/numbers")
        let opened = try await live.events("/demos/numbers/events", cookie: cookie)
        let (stream, first) = try await offPool { var reader = opened; let event = try reader.nextEvent(); return (reader, event) }
        #expect(first.name == "snapshot")
        let writers = 16, each = 10
        let answered = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<writers {
                group.addTask {
                    var versions: [Int] = []
                    for _ in 0..<each {
                        let response = try await live.postJSON("/demos/numbers/actions/append", "{}", cookie: cookie)
                        guard response.status == 200, let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                              let version = object["version"] as? Int else { throw ClientError("append answered \(response.status)") }
                        versions.append(version)
                    }
                    return versions
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(answered).count == writers * each, "every answer names its own version")
        let events = try await offPool {
            var reader = stream
            return try (0..<(writers * each)).map { _ in try reader.nextEvent() }
        }
        let versions = events.compactMap { $0.id.flatMap { $0.split(separator: "-").last }.flatMap { Int($0) } }
        #expect(versions == Array(2...(writers * each + 1)), "each version once, in order")
        let store = try SQLiteSessionStore(directory: directory.path)
        let key = ListKey(session: try #require(SessionID(cookie)), demo: "numbers")
        #expect(try await store.list(key)?.version == writers * each + 1, "every answered change is saved")
        await live.stop()
    }

    @Test("a change the store refuses is answered 503, its list takes no more writes, and the next request makes it again from the store")
    func unsavedChangeIsRefused() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path }
        let visitor = Visitor(app)
        await visitor.send(.post, "/demos/numbers/actions/append", json: "{}")
        let saved = try #require(visitor.list("numbers"))
        let version = saved.version
        // Behind the server's back, the list's row goes: the next save breaks its foreign key.
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("diffable-web.sqlite").path)
        try database.execute("PRAGMA foreign_keys = ON")
        try database.run("DELETE FROM lists WHERE session_id = ?", [.text(try #require(visitor.cookie))])
        let refused = await visitor.send(.post, "/demos/numbers/actions/append", json: "{}")
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.text.contains("store_unavailable"))
        #expect(saved.isRetired, "the list that could not be saved takes no more writes")
        // The next request makes the list again from the store (here: afresh, its row is gone).
        await visitor.send(.get, "/demos/numbers")
        let again = try #require(visitor.list("numbers"))
        #expect(again !== saved && !again.isRetired && again.version == 1 && version == 2)
    }
    @Test("an action that applied something and then refused is answered with its refusal; what it applied is saved, the list goes on")
    func refusalAfterAnApply() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path; $0.demos = [TinyDemo.descriptor()] }
        let visitor = Visitor(app)
        await visitor.send(.get, "/demos/tiny")
        let refused = await visitor.send(.post, "/demos/tiny/actions/swapThenRefuse", json: "{}")
        #expect(refused.status == .unprocessableContent && refused.text.contains("refused"))
        let list = try #require(visitor.list("tiny"))
        #expect(!list.isRetired && list.version == 2 && list.dataSource.snapshot().itemIdentifiers == ["n2", "n1"])
        let key = ListKey(session: try #require(visitor.cookie.flatMap(SessionID.init)), demo: "tiny")
        #expect(try await SQLiteSessionStore(directory: directory.path).list(key)?.sections.first?.items == ["n2", "n1"], "what it applied is saved")
        let again = await visitor.send(.post, "/demos/tiny/actions/swapBoth", json: "{}")
        #expect(again.status == .ok && list.version == 3)
    }
}
