import Foundation
import HTTPTestSupport
import MicroHTTP
@testable import DiffableWeb
import Testing

/// The maintenance round: watched sessions are marked seen once a touch interval (not every
/// round), and never expire; sessions without a stream do.
@Suite("Sessions: the maintenance round")
struct LiveSessionMaintenanceTests {
    @Test("a watched session is marked seen once a minute, not every round, and never expires; an idle one does")
    func watchedSessionsAreTouchedOnceAMinute() async throws {
        let live = try await LiveServer.start { $0.sessionIdleTimeout = .seconds(30 * 60) }
        let cookie = try await live.newSession("/demos/numbers")
        let idle = try await live.newSession("/demos/numbers")
        var stream = try await live.events("/demos/numbers/events", cookie: cookie)
        _ = try await next(&stream)
        let sessions = live.app.sessions
        let watched = try #require(SessionID(cookie))
        #expect(await eventually(timeout: .seconds(20)) { sessions.existing(watched)?.openStreamCount == 1 })

        var maintenance = SessionMaintenance(sessions: sessions, roundInterval: .seconds(30))
        #expect(maintenance.touchInterval == .seconds(60) && maintenance.touchEvery == 2)
        let start = ContinuousClock.now
        #expect(maintenance.round(now: start + .seconds(30)).touched == 0, "not marked every round")
        #expect(maintenance.round(now: start + .seconds(60)).touched == 1, "marked once a minute")
        // Hours later, and not its turn to be marked: the watched session stays, the idle one goes.
        let late = maintenance.round(now: start + .seconds(3 * 3600))
        #expect(late.touched == 0 && late.expired == 1)
        #expect(sessions.existing(watched) != nil)
        #expect(sessions.existing(try #require(SessionID(idle))) == nil)
        stream.socket.close()
        await live.stop()
    }

    @Test("with a short idle timeout, watched sessions are marked every quarter of it")
    func shortIdleTimeout() async throws {
        let registry = SessionRegistry(maximumCount: 10, idleTimeout: .seconds(60))
        let maintenance = SessionMaintenance(sessions: registry, roundInterval: .seconds(5))
        #expect(maintenance.touchInterval == .seconds(15) && maintenance.touchEvery == 3)
        let every = SessionMaintenance(sessions: SessionRegistry(maximumCount: 10, idleTimeout: .seconds(1)), roundInterval: .seconds(30))
        #expect(every.touchEvery == 1)
    }
}
