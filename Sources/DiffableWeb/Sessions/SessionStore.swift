import Synchronization

/// Every live session, bounded in number and in idle time.
///
/// A session is idle when it has no open event stream; idle sessions older than
/// `idleTimeout` are dropped by ``sweep(now:)``, and when the store is full the session idle
/// the longest is evicted to make room.
final class SessionStore: Sendable {
    let maximumCount: Int
    let idleTimeout: Duration
    private let sessions = Mutex<[SessionID: Session]>([:])
    /// The same sessions by their public share id.
    private let shared = Mutex<[SessionID: Session]>([:])

    init(maximumCount: Int, idleTimeout: Duration) {
        self.maximumCount = max(1, maximumCount)
        self.idleTimeout = idleTimeout
    }

    var count: Int { sessions.withLock { $0.count } }

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
        let session = shared.withLock { $0[shareID] }
        session?.touch(now)
        return session
    }

    /// An existing session by its cookie secret.
    func lookup(_ id: SessionID, now: ContinuousClock.Instant = .now) -> Session? {
        let session = sessions.withLock { $0[id] }
        session?.touch(now)
        return session
    }

    func create(now: ContinuousClock.Instant = .now) -> Session {
        let session = Session(id: .random(), shareID: .random(), now: now)
        var evicted: Session?
        sessions.withLock { sessions in
            if sessions.count >= maximumCount {
                // Evict the session idle the longest (prefer ones without open streams).
                let victim = sessions.values.min { a, b in
                    let aOpen = a.openStreamCount > 0, bOpen = b.openStreamCount > 0
                    return aOpen != bOpen ? !aOpen : a.lastSeenAt < b.lastSeenAt
                }
                if let victim { evicted = sessions.removeValue(forKey: victim.id) }
            }
            sessions[session.id] = session
        }
        shared.withLock { shared in
            if let evicted { shared[evicted.shareID] = nil }
            shared[session.shareID] = session
        }
        evicted?.closeStreams()
        return session
    }

    /// Drops sessions idle longer than the timeout (a session with an open stream is not idle).
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        let expired: [Session] = sessions.withLock { sessions in
            let doomed = sessions.values.filter { now - $0.lastSeenAt > idleTimeout && $0.openStreamCount == 0 }
            for session in doomed { sessions[session.id] = nil }
            return doomed
        }
        shared.withLock { shared in for session in expired { shared[session.shareID] = nil } }
        for session in expired { session.closeStreams() }
        return expired.count
    }

    var all: [Session] { sessions.withLock { Array($0.values) } }
}
