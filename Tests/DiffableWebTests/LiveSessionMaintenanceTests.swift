import Foundation
import HTTPTestSupport
import MicroHTTP
@testable import DiffableWeb
import Testing

/// The maintenance round: watched sessions are marked seen once a touch interval (a quarter of
/// the idle timeout, not every round), and never expire; sessions without a stream do. An
/// eviction passes over watched sessions.
@Suite("Sessions: the maintenance round", .stopsLiveServers)
struct LiveSessionMaintenanceTests {
    @Test("a watched session is marked seen every quarter of the idle timeout, not every round, and never expires; an idle one does")
    func watchedSessionsAreTouchedOnceAMinute() async throws {
        let live = try await LiveServer.start { $0.sessionIdleTimeout = .seconds(30 * 60) }
        let cookie = try await live.newSession("/demos/numbers")
        let idle = try await live.newSession("/demos/numbers")
        var stream = try await live.events("/demos/numbers/events", cookie: cookie)
        _ = try await next(&stream)
        let sessions = live.app.sessions
        let watched = try #require(SessionID(cookie))
        #expect(await eventually("the list counts the stream once its open closure has run") { sessions.existing(watched)?.openStreamCount == 1 })

        var maintenance = SessionMaintenance(sessions: sessions, roundInterval: .seconds(30))
        #expect(maintenance.touchInterval == .seconds(450) && maintenance.touchEvery == 15)
        let start = ContinuousClock.now
        for round in 1..<15 {
            #expect(maintenance.round(now: start + .seconds(30 * round)).touched == 0, "not marked every round")
        }
        #expect(maintenance.round(now: start + .seconds(450)).touched == 1, "marked every 7.5 minutes")
        // Hours later, and not its turn to be marked: the watched session stays, the idle one goes.
        let late = maintenance.round(now: start + .seconds(3 * 3600))
        #expect(late.touched == 0 && late.expired == 1)
        #expect(sessions.existing(watched) != nil)
        #expect(sessions.existing(try #require(SessionID(idle))) == nil)
        stream.socket.close()
        await live.stop()
    }

    @Test("a full registry evicts the longest idle session without a stream, however many watched ones are older")
    func evictionPassesOverWatchedSessions() async throws {
        let live = try await LiveServer.start { $0.maximumSessions = 10 }
        var streams: [EventReader] = []
        var watched: [SessionID] = []
        // Nine watched sessions, the longest idle (more than an eviction's first look: 8).
        for _ in 0..<9 {
            let cookie = try await live.newSession("/demos/numbers")
            var stream = try await live.events("/demos/numbers/events", cookie: cookie)
            _ = try await next(&stream)
            streams.append(stream)
            watched.append(try #require(SessionID(cookie)))
        }
        let sessions = live.app.sessions
        let all = watched
        let following = await eventually("each list counts its stream once its open closure has run") {
            all.allSatisfy { sessions.existing($0)?.openStreamCount == 1 }
        }
        #expect(following)
        let idle = try #require(SessionID(try await live.newSession("/demos/numbers")))
        #expect(sessions.count == 10)
        _ = try await live.newSession("/demos/numbers")  // full: one must go
        #expect(sessions.count == 10)
        #expect(sessions.existing(idle) == nil, "the session without a stream was evicted")
        let kept = all.filter { sessions.existing($0) != nil }.count
        #expect(kept == 9, "no watched session was evicted")
        for stream in streams { stream.socket.close() }
        await live.stop()
    }

    @Test("watched sessions are marked every quarter of the idle timeout, at least every round")
    func touchInterval() async throws {
        let registry = SessionRegistry(maximumCount: 10, idleTimeout: .seconds(60))
        let maintenance = SessionMaintenance(sessions: registry, roundInterval: .seconds(5))
        #expect(maintenance.touchInterval == .seconds(15) && maintenance.touchEvery == 3)
        let every = SessionMaintenance(sessions: SessionRegistry(maximumCount: 10, idleTimeout: .seconds(1)), roundInterval: .seconds(30))
        #expect(every.touchEvery == 1)
    }
}
