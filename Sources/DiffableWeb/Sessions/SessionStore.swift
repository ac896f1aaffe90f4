import Synchronization

/// Every live session, bounded in number and in idle time.
///
/// A session is idle when it has no open event stream; idle sessions older than
/// `idleTimeout` are dropped by ``sweep(now:)``, and when the store is full the session idle
/// the longest is evicted to make room.
///
/// Sessions are kept in the order they were last seen (an intrusive doubly linked list over
/// the dictionary, ``IdleOrder``), so a lookup, a touch, an eviction and each expired session
/// cost O(1): nothing scans the store.
final class SessionStore: Sendable {
    let maximumCount: Int
    let idleTimeout: Duration
    /// How many of the longest-idle sessions an eviction looks at to find one without an open
    /// stream (a stream keeps its session fresh through heartbeats, so the first usually is).
    static let evictionScan = 8

    private struct State {
        var order = IdleOrder<SessionID, Session>()
        /// Share id → cookie id.
        var shared: [SessionID: SessionID] = [:]
    }
    private let state = Mutex(State())

    init(maximumCount: Int, idleTimeout: Duration) {
        self.maximumCount = max(1, maximumCount)
        self.idleTimeout = idleTimeout
    }

    var count: Int { state.withLock { $0.order.count } }

    /// The session named by `cookie`, or a new one when the cookie is missing, malformed,
    /// forged or expired. `isNew` tells the caller to set the cookie.
    func session(cookie: String?, now: ContinuousClock.Instant = .now) -> (session: Session, isNew: Bool) {
        if let cookie, let id = SessionID(cookie), let existing = lookup(id, now: now) {
            return (existing, false)
        }
        return (create(now: now), true)
    }

    /// A session by its public share id (for scripts attaching to a browser's session).
    func lookup(shareID: SessionID, now: ContinuousClock.Instant = .now) -> Session? {
        state.withLock { state in
            guard let id = state.shared[shareID] else { return nil }
            return state.order.touch(id, at: now)
        }
    }

    /// An existing session by its cookie secret.
    func lookup(_ id: SessionID, now: ContinuousClock.Instant = .now) -> Session? {
        state.withLock { $0.order.touch(id, at: now) }
    }

    /// Marks a session as seen now (heartbeats do, for sessions with open streams).
    func touch(_ session: Session, now: ContinuousClock.Instant = .now) {
        state.withLock { _ = $0.order.touch(session.id, at: now) }
    }

    func create(now: ContinuousClock.Instant = .now) -> Session {
        let session = Session(id: .random(), shareID: .random(), now: now)
        let evicted = state.withLock { state -> Session? in
            var victim: Session?
            if state.order.count >= maximumCount {
                // The longest idle, preferring one without an open stream among the first few.
                let candidates = state.order.oldest(Self.evictionScan)
                let chosen = candidates.first { $0.openStreamCount == 0 } ?? candidates.first
                if let chosen {
                    state.order.remove(chosen.id)
                    state.shared[chosen.shareID] = nil
                    victim = chosen
                }
            }
            state.order.insertNewest(session.id, session, at: now)
            state.shared[session.shareID] = session.id
            return victim
        }
        evicted?.closeStreams()
        return session
    }

    /// Drops sessions idle longer than the timeout; a session with an open stream is not idle
    /// (it is marked seen now and kept). - Complexity: O(sessions expired or kept).
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        let expired = state.withLock { state -> [Session] in
            var expired: [Session] = []
            var kept = 0
            while let (oldest, seen) = state.order.oldestEntry, now - seen > idleTimeout, kept < state.order.count {
                if oldest.openStreamCount > 0 {
                    _ = state.order.touch(oldest.id, at: now)
                    kept += 1
                } else {
                    state.order.remove(oldest.id)
                    state.shared[oldest.shareID] = nil
                    expired.append(oldest)
                }
            }
            return expired
        }
        for session in expired { session.closeStreams() }
        return expired.count
    }

    var all: [Session] { state.withLock { $0.order.values } }
}
