import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

@Suite("Web: the event stream over a real socket")
struct LiveStreamTests {
    @Test("connect: a snapshot event; then one changeset event per apply, id = version")
    func snapshotThenChangesets() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        var stream = try await live.events("/demos/numbers/events?width=390&height=844", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        #expect((snapshot.json["cells"] as? [Any])?.count == 6)
        let response = try await live.postJSON("/demos/numbers/actions/append", #"{"seq":1}"#, cookie: cookie)
        #expect(response.status == 200)
        let changeset = try await next(&stream)
        #expect(changeset.name == "changeset")
        #expect(changeset.id == "2")
        #expect((changeset.json["inserted"] as? [[String: Any]])?.first?["id"] as? String == "n6")
        stream.socket.close()
        await live.stop()
    }

    @Test("every tab of a session receives every event; other sessions receive nothing")
    func everyTab() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let other = try await live.newSession("/demos/numbers")
        var tab1 = try await live.events("/demos/numbers/events", cookie: cookie)
        var tab2 = try await live.events("/demos/numbers/events", cookie: cookie)
        var stranger = try await live.events("/demos/numbers/events", cookie: other)
        for _ in 0..<3 { _ = try await live.postJSON("/demos/numbers/actions/removeLast", "{}", cookie: cookie) }
        for tab in [1, 2] {
            var reader = tab == 1 ? tab1 : tab2
            #expect(try await next(&reader).name == "snapshot")
            let ids = [try await next(&reader).id, try await next(&reader).id, try await next(&reader).id]
            #expect(ids == ["2", "3", "4"])
            if tab == 1 { tab1 = reader } else { tab2 = reader }
        }
        #expect(try await next(&stranger).name == "snapshot")
        await #expect(throws: (any Error).self) { _ = try await next(&stranger, timeout: 0.5) }
        for reader in [tab1, tab2, stranger] { reader.socket.close() }
        await live.stop()
    }

    @Test("reconnecting with Last-Event-ID replays the missed events; an unknown id gets a snapshot")
    func replay() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        var first = try await live.events("/demos/numbers/events", cookie: cookie)
        let snapshot = try await next(&first)
        first.socket.close()
        _ = try await live.postJSON("/demos/numbers/actions/append", "{}", cookie: cookie)
        _ = try await live.postJSON("/demos/numbers/actions/removeCenter", "{}", cookie: cookie)
        var again = try await live.events("/demos/numbers/events", cookie: cookie, lastEventID: snapshot.id)
        let missed = [try await next(&again), try await next(&again)]
        #expect(missed.map(\.name) == ["changeset", "changeset"])
        #expect(missed.map(\.id) == ["2", "3"])
        again.socket.close()
        var stale = try await live.events("/demos/numbers/events", cookie: cookie, lastEventID: "999")
        #expect(try await next(&stale).name == "snapshot")
        stale.socket.close()
        var garbage = try await live.events("/demos/numbers/events?lastEventId=x.y", cookie: cookie)
        #expect(try await next(&garbage).name == "snapshot")
        garbage.socket.close()
        await live.stop()
    }

    @Test("heartbeat comments arrive on idle streams")
    func heartbeat() async throws {
        let live = try await LiveServer.start { $0.heartbeatInterval = .milliseconds(200) }
        let maintenance = Task { await live.app.runMaintenance() }
        let cookie = try await live.newSession("/demos/numbers")
        var stream = try await live.events("/demos/numbers/events", cookie: cookie)
        _ = try await next(&stream)
        let comment = try await next(&stream, timeout: 3, includeComments: true)
        #expect(comment.data == ": heartbeat")
        maintenance.cancel()
        stream.socket.close()
        await live.stop()
    }

    @Test("streams killed server-side end; the client reconnects and recovers the same list")
    func dropAndRecover() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/mountains")
        _ = try await live.postJSON("/demos/mountains/actions/search", #"{"query":"ben"}"#, cookie: cookie)
        var stream = try await live.events("/demos/mountains/events", cookie: cookie)
        let before = try await next(&stream)
        let dropped = try await live.postJSON("/__test/drop-streams", "{}")
        #expect(dropped.status == 204)
        let captured = stream
        let ended = try await offPool { var copy = captured; return try copy.readToEnd(timeout: 5) }
        #expect(ended)
        var again = try await live.events("/demos/mountains/events", cookie: cookie)
        let after = try await next(&again)
        let ids: (SSEEvent) -> [String] = { ($0.json["cells"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        #expect(ids(before) == ids(after) && !ids(after).isEmpty)
        again.socket.close()
        await live.stop()
    }
}
