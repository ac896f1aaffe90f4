import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// Issue 21, finding 1: a session evicted while its writes are in flight, and brought back by
/// its next request, must not get a second live copy of its list (two writers of the same
/// versions: one copy's acknowledged changes were overwritten and lost).
@Suite("Eviction race: writers, new sessions and evictions together lose no acknowledged write", .stopsLiveServers)
struct LiveEvictionRaceTests {
    /// What the writers were answered.
    private struct Answers: Sendable {
        var versions: [Int] = []
        var refused: [String] = []
    }

    /// Each writer's appends, and each client's new sessions (every new session past the second
    /// evicts one: the writers' session, again and again).
    static let appendsPerWriter = 40
    static let sessionsPerClient = 60

    @Test("max 2 sessions, 6 writers appending to one session's Numbers and 2 clients making sessions: every 200 is found live and after a reopen")
    func acknowledgedWritesSurviveEviction() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = try await LiveServer.start { $0.stateDirectory = directory.path; $0.maximumSessions = 2 }
        let created = try await live.postJSON("/api/sessions", "{}")
        let share = try #require(Self.object(created.body)?["id"] as? String)
        let base = "/api/sessions/\(share)/demos/numbers"
        let initial = try #require(Self.object(try await get(port: live.port, base + "/snapshot").body))
        let initialItems = Self.items(initial), initialVersion = try #require(initial["version"] as? Int)

        // Fixed amounts of work, not a time: a busy machine takes longer, and the same writes race.
        let answered = try await withThrowingTaskGroup(of: Answers.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    var answers = Answers()
                    for _ in 0..<Self.appendsPerWriter {
                        let response = try await live.postJSON(base + "/actions/append", "{}")
                        if response.status == 200, let version = Self.object(response.body)?["version"] as? Int {
                            answers.versions.append(version)
                        } else {
                            answers.refused.append("\(response.status) \(String(decoding: response.body.prefix(200), as: UTF8.self))")
                        }
                    }
                    return answers
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<Self.sessionsPerClient {
                        let response = try await live.postJSON("/api/sessions", "{}")
                        #expect(response.status == 201)
                    }
                    return Answers()
                }
            }
            return try await group.reduce(into: Answers()) { all, some in
                all.versions += some.versions
                all.refused += some.refused
            }
        }
        #expect(answered.versions.count == 6 * Self.appendsPerWriter, "every write got through (\(answered.versions.count) answered)")
        #expect(Set(answered.versions).count == answered.versions.count, "no version acknowledged twice")
        #expect(answered.refused.isEmpty, "no write refused: one writer per list (refused: \(answered.refused.prefix(5)))")
        let expectedVersion = initialVersion + answered.versions.count
        let expectedCount = initialItems.count + answered.versions.count

        // Live: the session (evicted again and again) has every acknowledged append.
        let now = try #require(Self.object(try await get(port: live.port, base + "/snapshot").body))
        #expect(now["version"] as? Int == expectedVersion)
        #expect(Self.items(now).count == expectedCount && Set(Self.items(now)).count == expectedCount)
        await live.stop()
        await live.app.close()

        // After the store is reopened by a new app on the same directory.
        let second = try await makeApp { $0.stateDirectory = directory.path }
        let reopened = await second.handle(Request(method: .get, target: base + "/snapshot"))
        #expect(reopened.status == .ok)
        #expect(reopened.json?["version"] as? Int == expectedVersion)
        let saved = Self.items(reopened.json ?? [:])
        #expect(saved.count == expectedCount && Set(saved).count == expectedCount, "every acknowledged append is saved")
    }

    private static func object(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    private static func items(_ snapshot: [String: Any]) -> [String] {
        let sections = snapshot["sections"] as? [[String: Any]] ?? []
        return sections.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
    }
}
