import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The insertion sort over real sockets: once started and watched, each step reaches the tab as
/// a changeset of moves only, animated; the sorted rows are followed by a shuffle applied
/// without animation; Stop and a tab that leaves end the steps; a restart keeps rows and state.
@Suite("Live insertion sort: moves-only steps while started and watched, a shuffle without animation, a restart keeps it", .stopsLiveServers)
struct LiveInsertionSortTests {
    static let path = "/demos/insertion-sort"

    func start(step: Duration = .milliseconds(2), pause: Duration = .milliseconds(5),
               stateDirectory: String? = nil) async throws -> (LiveServer, String) {
        let sort = try InsertionSort.descriptor(pace: InsertionSort.Pace(step: step, pause: pause))
        let live = try await LiveServer.start {
            $0.demos = [sort]
            if let stateDirectory { $0.stateDirectory = stateDirectory }
        }
        return (live, try await live.newSession(Self.path))
    }

    func list(_ live: LiveServer, _ cookie: String) throws -> LiveList {
        try #require(live.app.sessionList(cookie: cookie, demo: InsertionSort.name))
    }

    func state(_ list: LiveList) throws -> InsertionSort {
        try #require(list.demo as? WebListDemo<InsertionSort>).current
    }

    static func ids(_ event: SSEEvent, _ key: String) -> [String] {
        (event.json[key] as? [[String: Any]] ?? []).flatMap { $0["ids"] as? [String] ?? [] }
    }

    @Test("each step is moves only, one node a row, animated; sorted rows are followed by a shuffle without animation")
    func stepsThenShuffle() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("\(Self.path)/events?width=390&height=844", cookie: cookie)
        #expect(try await next(&stream).name == "snapshot")
        #expect(try await live.postJSON("\(Self.path)/actions/start", "{}", cookie: cookie).status == 200)
        var steps = 0
        var lastStatus = ""
        var shuffle: SSEEvent?
        while shuffle == nil && steps < 100 {
            let event = try await next(&stream)
            guard event.name == "changeset" else { continue }
            if event.json["animated"] as? Bool == false {
                shuffle = event
                break
            }
            lastStatus = event.json["status"] as? String ?? ""
            let moved = Self.ids(event, "moved")
            if moved.isEmpty { continue }  // Start's own event: the state, no items
            steps += 1
            #expect((event.json["deleted"] as? [String] ?? []).isEmpty && Self.ids(event, "inserted").isEmpty)
            #expect((event.json["updated"] as? [Any] ?? []).isEmpty && event.json["sections"] == nil)
            let rows = moved.compactMap { SortingRows.Node($0)?.row }
            #expect(rows.count == moved.count && Set(rows).count == rows.count, "one node a row: \(moved)")
        }
        #expect((1...InsertionSort.nodeCount - 1).contains(steps), "a shuffled row sorts in at most n − 1 steps")
        #expect(lastStatus == "Sorted; a new shuffle follows")
        let shuffled = try #require(shuffle)
        #expect((shuffled.json["deleted"] as? [String] ?? []).isEmpty && Self.ids(shuffled, "inserted").isEmpty)
        #expect(!Self.ids(shuffled, "moved").isEmpty && shuffled.json["status"] as? String == "Sorting")
        let after = try state(try list(live, cookie))
        #expect(after.shuffles >= 1 && after.steps >= steps)
        stream.socket.close()
    }

    @Test("no steps while nobody watches or after Stop")
    func onlyWhileStartedAndWatched() async throws {
        let (live, cookie) = try await start()
        let list = try list(live, cookie)
        #expect(try await live.postJSON("\(Self.path)/actions/start", "{}", cookie: cookie).status == 200)
        let started = list.version
        // No step is what is under test: no job runs to make one (jobs start and stop with the
        // write that asks for them).
        let sorter = try #require(list.demo as? WebListDemo<InsertionSort>)
        #expect(sorter.runningJobIDs.isEmpty, "started, but nobody watches: no job")
        #expect(list.version == started, "started, but nobody watches: no step")
        var stream = try await live.events("\(Self.path)/events?width=1280&height=900", cookie: cookie)
        _ = try await next(&stream)
        #expect(await eventually("the watched list's first step") { list.version > started })
        #expect(!sorter.runningJobIDs.isEmpty, "started and watched: the sorting job runs")
        #expect(try await live.postJSON("\(Self.path)/actions/stop", "{}", cookie: cookie).status == 200)
        // A step that waited behind Stop finds its job cancelled and writes nothing.
        let stopped = list.version
        #expect(try state(list).status(of: list.dataSource.snapshot()).hasPrefix("Stopped"))
        #expect(sorter.runningJobIDs.isEmpty, "stopped: the job is cancelled")
        #expect(list.version == stopped, "stopped: no step")
        stream.socket.close()
    }

    @Test("the rows and the state (started, steps, shuffles) survive a restart")
    func restart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (live, cookie) = try await start(step: .milliseconds(20), stateDirectory: directory.path)
        let list = try list(live, cookie)
        var stream = try await live.events("\(Self.path)/events?width=390&height=844", cookie: cookie)
        _ = try await next(&stream)
        #expect(try await live.postJSON("\(Self.path)/actions/start", "{}", cookie: cookie).status == 200)
        #expect(await eventually("two steps") { ((try? state(list).steps) ?? 0) >= 2 })
        #expect(try await live.postJSON("\(Self.path)/actions/stop", "{}", cookie: cookie).status == 200)
        let (items, version, saved) = (list.dataSource.snapshot().itemIdentifiers, list.version, try state(list))
        stream.socket.close()

        let second = try await makeApp {
            $0.demos = [try InsertionSort.descriptor()]
            $0.stateDirectory = directory.path
        }
        let returning = Visitor(second)
        returning.cookie = cookie
        let page = await returning.send(.get, Self.path)
        #expect(page.sessionCookie == nil, "the same session")
        let restored = try #require(returning.list(InsertionSort.name))
        #expect(restored.dataSource.snapshot().itemIdentifiers == items && restored.version == version)
        let returned = try #require(restored.demo as? WebListDemo<InsertionSort>).current
        #expect(!returned.sorting && returned.steps == saved.steps && returned.shuffles == saved.shuffles && returned.sorted == saved.sorted)
        #expect(page.text.contains(#"data-state-value="stopped" aria-pressed="true""#))
    }
}
