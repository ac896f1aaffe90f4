import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

@Suite("Web: the event stream over a real socket", .stopsLiveServers)
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
        #expect(version(changeset.id) == "2")
        #expect(epoch(changeset.id) == epoch(snapshot.id) && epoch(snapshot.id).utf8.count == 12)
        #expect((changeset.json["inserted"] as? [[String: Any]])?.first?["ids"] as? [String] == ["n6"])
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
            #expect(ids.map(version) == ["2", "3", "4"])
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
        #expect(missed.map { version($0.id) } == ["2", "3"])
        again.socket.close()
        var stale = try await live.events("/demos/numbers/events", cookie: cookie, lastEventID: "999")
        #expect(try await next(&stale).name == "snapshot")
        stale.socket.close()
        var garbage = try await live.events("/demos/numbers/events?lastEventId=x.y", cookie: cookie)
        #expect(try await next(&garbage).name == "snapshot")
        garbage.socket.close()
        await live.stop()
    }

    @Test("a Last-Event-ID of another list's run (a replaced session, a restart) gets a fresh snapshot, never that list's events",
          arguments: ["other session", "bare version", "same version, other epoch"])
    func otherEpochResyncs(_ kind: String) async throws {
        let live = try await LiveServer.start()
        // The old tab: its session's list reached version 3.
        let old = try await live.newSession("/demos/numbers")
        var oldStream = try await live.events("/demos/numbers/events", cookie: old)
        _ = try await next(&oldStream)
        oldStream.socket.close()
        _ = try await live.postJSON("/demos/numbers/actions/removeLast", "{}", cookie: old)
        _ = try await live.postJSON("/demos/numbers/actions/removeLast", "{}", cookie: old)
        var check = try await live.events("/demos/numbers/events", cookie: old)
        let oldID = try #require(try await next(&check).id)  // "<epoch>-3"
        check.socket.close()
        #expect(version(oldID) == "3")
        // The new session (the old one was evicted, or the server restarted) is at version 4,
        // so its log holds an event right after the old tab's version.
        let new = try await live.newSession("/demos/numbers")
        for _ in 0..<3 { _ = try await live.postJSON("/demos/numbers/actions/append", "{}", cookie: new) }
        var probe = try await live.events("/demos/numbers/events", cookie: new)
        let newID = try #require(try await next(&probe).id)
        probe.socket.close()
        #expect(version(newID) == "4" && epoch(newID) != epoch(oldID))
        let sent = switch kind {
        case "other session": oldID
        case "bare version": "3"
        default: "\(String(repeating: "0", count: 12))-3"
        }
        var reconnect = try await live.events("/demos/numbers/events", cookie: new, lastEventID: sent)
        let first = try await next(&reconnect)
        #expect(first.name == "snapshot")
        #expect(version(first.id) == "4" && epoch(first.id) == epoch(newID))
        await #expect(throws: (any Error).self) { _ = try await next(&reconnect, timeout: 0.3) }
        reconnect.socket.close()
        await live.stop()
    }

    @Test("heartbeat comments arrive on idle streams")
    func heartbeat() async throws {
        let live = try await LiveServer.start { $0.heartbeatInterval = .milliseconds(200) }
        let maintenance = Task { await live.app.runMaintenance() }
        let cookie = try await live.newSession("/demos/numbers")
        var stream = try await live.events("/demos/numbers/events", cookie: cookie)
        _ = try await next(&stream)
        let comment = try await next(&stream, includeComments: true)  // the heartbeat's own schedule
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
        let ended = try await offPool { var copy = captured; return try copy.readToEnd(timeout: Patience.hangSeconds) }
        #expect(ended)
        var again = try await live.events("/demos/mountains/events", cookie: cookie)
        let after = try await next(&again)
        let ids: (SSEEvent) -> [String] = { ($0.json["cells"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        #expect(ids(before) == ids(after) && !ids(after).isEmpty)
        again.socket.close()
        await live.stop()
    }
}

/// The version part of a wire event id (`<epoch>-<version>[.<layout>]`).
private func version(_ id: String?) -> String { id?.split(separator: "-").last.map(String.init) ?? "" }
/// The epoch part of a wire event id.
private func epoch(_ id: String?) -> String { id?.split(separator: "-").first.map(String.init) ?? "" }
