import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb

/// One client cannot grow the server's memory past its session's budget, and all of them
/// together not past the server's: a write that would is refused and changes nothing; idle
/// sessions are evicted (and stay saved) before anyone is refused.
@Suite("Session memory budget")
struct SessionMemoryBudgetTests {
    /// `count` identifiers of 200 characters (URLs, for the URL stream's list), unique by `tag`.
    static func appendBatch(_ tag: String, count: Int) -> String {
        let ids = (0..<count).map { "\"" + id(tag, $0) + "\"" }
        return #"{"operations":[{"op":"appendItems","items":["# + ids.joined(separator: ",") + "]}]}"
    }

    static func id(_ tag: String, _ n: Int) -> String {
        let head = "https://example.org/\(tag)/\(n)/"
        return head + String(repeating: "x", count: 200 - head.count)
    }

    static func post(_ app: WebApp, _ target: String, _ json: String) async -> Response {
        await app.handle(Request(method: .post, target: target, headers: ["Content-Type": "application/json"], body: Array(json.utf8)))
    }

    static func newSession(_ app: WebApp) async throws -> String {
        let id = try #require(await post(app, "/api/sessions", "").json?["id"] as? String)
        // Makes the URL stream's list (its first batch).
        #expect(await app.handle(Request(method: .get, target: "/api/sessions/\(id)/demos/urls/snapshot")).status == .ok)
        return id
    }

    static func snapshot(_ app: WebApp, _ id: String) async -> [String: Any] {
        await app.handle(Request(method: .get, target: "/api/sessions/\(id)/demos/urls/snapshot")).json ?? [:]
    }

    static func itemCount(_ snapshot: [String: Any]) -> Int {
        (snapshot["sections"] as? [[String: Any]] ?? []).reduce(0) { $0 + (($1["items"] as? [Any])?.count ?? 0) }
    }

    @Test("a write past the session's budget is refused with 422 memory_budget naming it, and the list is exactly as it was")
    func sessionBudget() async throws {
        let app = try await makeApp { $0.sessionMemoryBytes = 2 << 20; $0.memoryTotalBytes = 0 }
        let id = try await Self.newSession(app)
        let operations = "/api/sessions/\(id)/demos/urls/operations"
        let session = try #require(app.sessions.all.first)
        let list = try #require(session.existingLists["urls"])
        // 2,000 items of 200 characters: ~600 KB in the list (RSS measured ~306 B an item), and
        // the append's event (~400 KB of identifiers) in the list's log.
        var accepted = 0
        var refusal: Response?
        for round in 0..<10 {
            let before = list.currentSnapshot()
            let response = await Self.post(app, operations, Self.appendBatch("r\(round)", count: 2_000))
            if response.status == .ok { accepted += 1; continue }
            refusal = response
            let after = list.currentSnapshot()
            #expect(after.version == before.version, "the version did not move")
            #expect(after.snapshot == before.snapshot, "every section and item as before")
            #expect(list.recentEvents.last?.id.version == before.version, "nothing logged (so nothing streamed or saved)")
            break
        }
        let refused = try #require(refusal, "ten appends of 2,000 long ids passed a 2 MiB budget")
        #expect(accepted == 2, "two batches and their events fit in 2 MiB, the third would pass it")
        #expect(refused.status == .unprocessableContent)
        #expect(refused.json?["error"] as? String == "memory_budget")
        #expect((refused.json?["message"] as? String)?.contains("at most 2 MiB") == true, "\(refused.json ?? [:])")
        #expect(session.memory.usedBytes <= 2 << 20)
        #expect(session.memory.usedBytes > 2 * 2_000 * 250, "the appended identifiers are counted")
        // Within its budget again, the session writes as before.
        let delete = #"{"operations":[{"op":"deleteItems","items":[""# + Self.id("r0", 0) + #""]}]}"#
        #expect(await Self.post(app, operations, delete).status == .ok)
    }

    @Test("deleting what was appended gives the session its budget back")
    func accountingFollowsWrites() async throws {
        let app = try await makeApp { $0.sessionMemoryBytes = 0; $0.memoryTotalBytes = 0 }
        let id = try await Self.newSession(app)
        let session = try #require(app.sessions.all.first)
        let start = session.memory.usedBytes
        #expect(await Self.post(app, "/api/sessions/\(id)/demos/urls/operations", Self.appendBatch("a", count: 1_000)).status == .ok)
        let grown = session.memory.usedBytes
        #expect(grown - start >= 1_000 * 250, "1,000 identifiers of 200 characters: \(grown - start) bytes")
        #expect(await Self.post(app, "/api/sessions/\(id)/demos/urls/operations", #"{"operations":[{"op":"deleteAllItems"}]}"#).status == .ok)
        let list = try #require(session.existingLists["urls"])
        #expect(list.memory.contents == 0, "the deleted identifiers are no longer counted (\(list.memory.contents) bytes)")
        #expect(session.memory.usedBytes < grown, "what is left is the list's log of recent events")
    }

    @Test("over the server's budget, idle sessions are evicted first (and stay saved); then writes get 503 memory_full with Retry-After")
    func serverBudget() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = directory.path; $0.sessionMemoryBytes = 0; $0.memoryTotalBytes = 3 << 20 }
        let budget = try #require(app.sessions.memoryBudget)
        let first = try await Self.newSession(app)
        for round in 0..<3 {
            #expect(await Self.post(app, "/api/sessions/\(first)/demos/urls/operations", Self.appendBatch("f\(round)", count: 2_000)).status == .ok)
        }
        let firstItems = Self.itemCount(await Self.snapshot(app, first))
        #expect(app.sessions.count == 1)
        let second = try await Self.newSession(app)
        // The second session's writes pass 3 MiB: the first, idle, is evicted to make room.
        for round in 0..<3 {
            let response = await Self.post(app, "/api/sessions/\(second)/demos/urls/operations", Self.appendBatch("s\(round)", count: 2_000))
            #expect(response.status == .ok, "round \(round): \(response.json ?? [:])")
        }
        #expect(app.sessions.count == 1, "the idle session was evicted")
        #expect(budget.usedBytes <= 3 << 20)
        // Nothing left to evict but the writer itself: refused, and the list as it was.
        let list = try #require(app.sessions.all.first?.existingLists["urls"])
        var refusal: (Response, before: Int, after: Int)?
        for round in 3..<12 {
            let before = list.version
            let response = await Self.post(app, "/api/sessions/\(second)/demos/urls/operations", Self.appendBatch("s\(round)", count: 2_000))
            if response.status != .ok { refusal = (response, before, list.version); break }
        }
        let (refused, before, after) = try #require(refusal, "nine more appends passed a 3 MiB budget")
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.json?["error"] as? String == "memory_full")
        #expect(refused.headers["Retry-After"] != nil)
        #expect(after == before, "the refused write changed nothing")
        #expect(budget.usedBytes <= 3 << 20)
        // The evicted session comes back from the store with its list (and the second is evicted for it).
        #expect(Self.itemCount(await Self.snapshot(app, first)) == firstItems)
    }
}
