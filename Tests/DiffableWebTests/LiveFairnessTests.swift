import DiffableDataSources
import Foundation
import HTTPTestSupport
import Synchronization
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// One session's heavy requests (layouts of its 50,000-item list) do not hold the threads every
/// other session's requests run on (issue 22, finding 3). Bounds are generous (a loaded 2-core
/// machine, a debug build): before the fix a second session's action waited seconds.
@Suite("Live fairness: one session's heavy requests do not delay another session", .stopsLiveServers)
struct LiveFairnessTests {
    /// Large enough that a debug build lays it out in about a second.
    static let bigList = 50_000

    struct Setup {
        var live: LiveServer
        /// The heavy session's id in the API, and its list.
        var heavy: String
        var list: LiveList
        /// The other session's id in the API.
        var other: String
    }

    func start(_ configure: @escaping (inout WebConfiguration) -> Void = { _ in }) async throws -> Setup {
        let numbers = try Numbers.descriptor()
        let live = try await LiveServer.start {
            $0.demos = [numbers]
            configure(&$0)
        }
        let heavyCookie = try await live.newSession("/demos/numbers")
        let otherCookie = try await live.newSession("/demos/numbers")
        let list = try #require(live.app.sessionList(cookie: heavyCookie, demo: "numbers"))
        var snapshot = Snapshot<String, String>()
        try snapshot.appendSections([Numbers.section])
        try snapshot.appendItems((1...Self.bigList).map { "n\($0)" }, toSection: Numbers.section)
        let big = snapshot
        let update = try await list.exclusive { $0.apply(big, animatingDifferences: false) }
        #expect(update?.snapshot.numberOfItems == Self.bigList)
        return Setup(live: live, heavy: try #require(live.app.shareID(cookie: heavyCookie)), list: list,
                     other: try #require(live.app.shareID(cookie: otherCookie)))
    }

    func layoutPath(_ session: String) -> String {
        "/api/sessions/\(session)/demos/numbers/layout?width=390&height=844"
    }

    /// Runs `loops` clients that each ask for the heavy session's layout again and again until
    /// `stop` is set; returns their answers' statuses.
    func heavyLoops(_ setup: Setup, _ loops: Int, until stop: StopFlag) async -> [Int] {
        let port = setup.live.port
        let path = layoutPath(setup.heavy)
        return await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<loops {
                group.addTask {
                    var statuses: [Int] = []
                    while !stop.isSet {
                        let status = (try? await get(port: port, path).status) ?? 0
                        statuses.append(status)
                        // A client's back-off after a 429 (its pace, not a wait for an event).
                        if status == 429 { try? await Task.sleep(for: .milliseconds(50)) }
                    }
                    return statuses
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    @Test("a second session's 20 actions are each answered within 2 s while 8 loops lay out the first's 50,000 items")
    func actionsWhileHeavyLoopsRun() async throws {
        // Two reads wait at most (the others are refused and retried): the test's end waits
        // for the reads in flight, not for a long queue.
        let setup = try await start { $0.heavyWorkWaitingPerSession = 2 }
        let stop = StopFlag()
        let heavy = Task { await heavyLoops(setup, 8, until: stop) }
        // The loops' first requests reach the server and start their work.
        let heavyWork = setup.live.app.heavyWork
        #expect(await eventually("the heavy loops' first layouts start on the heavy-work threads") { heavyWork.runningCount > 0 })
        var slowest = Duration.zero
        for _ in 0..<20 {
            let started = ContinuousClock.now
            let response = try await post(setup.live.port, "/api/sessions/\(setup.other)/demos/numbers/actions/append", #"{"count":1}"#)
            let took = ContinuousClock.now - started
            #expect(response.status == 200, "\(response.text)")
            #expect(took < .seconds(2), "an action of the other session took \(took)")
            slowest = max(slowest, took)
        }
        stop.set()
        let statuses = await heavy.value
        #expect(statuses.contains(200), "the heavy loops were answered: \(statuses)")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 429 }, "\(statuses)")
        print("LiveFairnessTests: slowest action \(slowest) beside \(statuses.count) layouts of \(Self.bigList) items")
    }

    /// A POST, with the clients' hang guard (before the fix an action waited seconds: the test says how many).
    func post(_ port: Int, _ target: String, _ json: String) async throws -> HTTPResponse {
        let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n"
        return try await exchange(port: port, Array((head + json).utf8))
    }

    @Test("heavy reads past the session's queue are refused 429 too_many_requests with Retry-After; the rest are answered")
    func refusedPastTheQueue() async throws {
        let setup = try await start {
            $0.heavyWorkThreads = 1
            $0.heavyWorkWaitingPerSession = 1
        }
        let port = setup.live.port
        let paths = [layoutPath(setup.heavy), "/api/sessions/\(setup.heavy)/demos/numbers/snapshot"]
        let responses = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            for index in 0..<8 { group.addTask { try await get(port: port, paths[index % 2]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let refused = responses.filter { $0.status == 429 }
        #expect(responses.allSatisfy { $0.status == 200 || $0.status == 429 }, "\(responses.map(\.status))")
        // At least the first is answered. Whether a second one is depends on timing: a read
        // that arrives before the queue's thread has taken the first finds the one waiting
        // place filled (a CI run saw 1 answered, 7 refused).
        #expect(responses.count - refused.count >= 1, "the read that was let in is answered")
        #expect(!refused.isEmpty, "8 heavy reads at once, 1 running and 1 waiting: the others are refused")
        for response in refused {
            #expect(object(response)["error"] as? String == "too_many_requests")
            #expect(response.header("Retry-After") == "1")
        }
    }
}

/// Set once, read by loops on other threads.
final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
