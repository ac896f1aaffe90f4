import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// Issue 21, finding 3: sessions evicted from memory were never deleted from the store, so
/// anonymous page loads grew it forever. The store now keeps about one idle timeout's sessions;
/// one a person comes back to within the timeout is still brought back.
@Suite("The store is bounded: evicted sessions idle for the timeout are deleted; a returning one is revived")
struct StoreGrowthTests {
    func storedSessions(_ database: SQLiteDatabase) throws -> Int {
        try database.query("SELECT count(*) FROM sessions").first?.first?.integer ?? -1
    }

    @Test("60 cookieless page loads with max 5 sessions: a sweep a timeout later deletes them from the store, not the one that came back")
    func evictedIdleSessionsAreDeleted() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Longer than this test can take on any machine: the sweeps here age sessions by the
        // `now` they are given. (It was 60 s, and the units phase, 300 tests on two cooperative
        // threads, took this test past 60 s of real time: the first sweep, with the real clock,
        // then rightly deleted every session not seen for 60 s, the returning one among them,
        // and it came back as a new session. The code was right; the test raced the clock.)
        let timeout: Duration = .seconds(3600)
        let app = try await makeApp { $0.stateDirectory = directory.path; $0.maximumSessions = 5; $0.sessionIdleTimeout = timeout }
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("diffable-web.sqlite").path)

        let returning = Visitor(app)
        await returning.send(.get, "/demos/numbers")
        let firstAnonymous = try #require(await app.handle(Request(method: .get, target: "/demos/mountains")).sessionCookie)
        for _ in 0..<58 { _ = await app.handle(Request(method: .get, target: "/demos/mountains")) }
        #expect(try storedSessions(database) == 60)
        app.sessions.sweep()  // the store marks the sessions seen so far (evicted ones too) as seen now
        await app.sessions.lastStoreSweep?.value
        #expect(try storedSessions(database) == 60, "none idle yet")

        // `middle` stands for "a timeout ago" in the last sweep: what was last seen before it is
        // idle for the timeout then, what was seen after it is not (a sweep's `now` ages every
        // session alike, so that the test need not wait a real timeout).
        // Time passing is what is under test: the store keeps when each session was last seen
        // (wall-clock milliseconds), and `middle` must fall between the marks of the first sweep
        // and the returning visit, with a margin for the clock's resolution.
        try await Task.sleep(for: .milliseconds(200))
        let middle = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(200))
        let back = await returning.send(.get, "/demos/numbers")
        #expect(back.status == .ok && back.sessionCookie == nil, "brought back from the store, not a new session")
        for _ in 0..<6 { _ = await app.handle(Request(method: .get, target: "/demos/numbers")) }  // evicts it again
        #expect(app.sessions.existing(try #require(returning.cookie.flatMap(SessionID.init))) == nil)

        #expect(app.sessions.sweep(now: middle + timeout) == 0, "the sessions in memory were seen after `middle`")
        await app.sessions.lastStoreSweep?.value
        #expect(try storedSessions(database) == 7, "the one that came back and the 6 made since; the 59 idle ones are deleted")
        #expect(try await SQLiteSessionStore(directory: directory.path).session(id: try #require(SessionID(firstAnonymous))) == nil)
        let again = await returning.send(.get, "/demos/numbers")
        #expect(again.status == .ok && again.sessionCookie == nil, "the session that came back within the timeout is still there")
    }
}
