import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// List appearances over real sockets: each switch reaches the tab as a changeset with no
/// inserts and no deletes, whose cells keep their identity (no new HTML for a cell the tab
/// holds) and move to the new appearance's frames; the state states the appearance; a restart
/// keeps it and the page shows it.
@Suite("Live list appearances: a switch is a relayout, the appearance survives a restart", .stopsLiveServers)
struct LiveListAppearancesTests {
    static let path = "/demos/list-appearances"

    static func cells(_ event: SSEEvent) -> [String: [String: Any]] {
        Dictionary(((event.json["cells"] as? [[String: Any]]) ?? []).compactMap { cell in (cell["id"] as? String).map { ($0, cell) } },
                   uniquingKeysWith: { first, _ in first })
    }

    @Test("each switch is a changeset without inserts or deletes; held rows get new frames and no new HTML", arguments: [390, 1280])
    func switches(width: Int) async throws {
        let live = try await LiveServer.start { $0.demos = [try ListAppearances.descriptor()] }
        let cookie = try await live.newSession(Self.path)
        var stream = try await live.events("\(Self.path)/events?width=\(width)&height=900&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        let held = Self.cells(snapshot).filter { $0.value["kind"] as? String == "item" }
        #expect(held.count >= 12)
        for appearance in [ListAppearance.insetGrouped, .sidebar, .grouped, .sidebarPlain, .plain] {
            let response = try await live.postJSON("\(Self.path)/actions/appearance", #"{"style":"\#(appearance.rawValue)"}"#, cookie: cookie)
            #expect(response.status == 200)
            let event = try await next(&stream)
            #expect(event.name == "changeset")
            #expect((event.json["inserted"] as? [Any] ?? []).isEmpty && (event.json["deleted"] as? [Any] ?? []).isEmpty)
            #expect((event.json["state"] as? [String: Any])?["appearance"] as? String == appearance.rawValue)
            let inset: Double = appearance == .insetGrouped ? 20 : appearance == .sidebar ? 10 : 0
            for (id, cell) in Self.cells(event) where cell["kind"] as? String == "item" {
                let frame = try #require(cell["frame"] as? [String: Double])
                #expect(abs(frame["x", default: -1] - inset) < 0.5 && abs(frame["w", default: -1] - (Double(width) - 2 * inset)) < 0.5, "\(appearance) \(id)")
                if held[id] != nil { #expect(cell["html"] == nil, "\(id) moves, it is not re-created") }
            }
        }
        let bad = try await live.postJSON("\(Self.path)/actions/appearance", #"{"style":"carousel"}"#, cookie: cookie)
        #expect(bad.status == 400 && bad.text.contains("invalid_parameter"))
        stream.socket.close()
    }

    @Test("the appearance survives a restart, and the page opens in it")
    func restart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = try await LiveServer.start {
            $0.demos = [try ListAppearances.descriptor()]
            $0.stateDirectory = directory.path
        }
        let cookie = try await live.newSession(Self.path)
        #expect(try await live.postJSON("\(Self.path)/actions/appearance", #"{"style":"sidebar"}"#, cookie: cookie).status == 200)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: ListAppearances.name))
        let (items, version) = (list.dataSource.snapshot().itemIdentifiers, list.version)

        let second = try await makeApp {
            $0.demos = [try ListAppearances.descriptor()]
            $0.stateDirectory = directory.path
        }
        let returning = Visitor(second)
        returning.cookie = cookie
        let page = await returning.send(.get, Self.path)
        #expect(page.sessionCookie == nil, "the same session")
        let restored = try #require(returning.list(ListAppearances.name))
        #expect(restored.dataSource.snapshot().itemIdentifiers == items && restored.version == version)
        #expect(try #require(restored.demo as? WebListDemo<ListAppearances>).current.appearance == .sidebar)
        #expect(page.text.contains(#"data-state-value="sidebar" aria-pressed="true""#))
        #expect(page.text.contains(#"data-appearance="sidebar""#))
    }
}
