import Logging
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
    /// Where sessions outlive the process (`nil`: memory only).
    let store: (any StateStore)?
    private let logger: Logger

    init(maximumCount: Int, idleTimeout: Duration, store: (any StateStore)? = nil, logger: Logger = Logger(label: "DiffableWeb")) {
        self.maximumCount = max(1, maximumCount)
        self.idleTimeout = idleTimeout
        self.store = store
        self.logger = logger
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

    /// A session by its public share id (for scripts attaching to a browser's session); one a
    /// previous run saved is brought back.
    func lookup(shareID: SessionID, now: ContinuousClock.Instant = .now) -> Session? {
        let found = state.withLock { state -> Session? in
            guard let id = state.shared[shareID] else { return nil }
            return state.order.touch(id, at: now)
        }
        return found ?? revive { try $0.session(shareID: shareID) }
    }

    /// An existing session by its cookie secret; one a previous run saved is brought back.
    func lookup(_ id: SessionID, now: ContinuousClock.Instant = .now) -> Session? {
        state.withLock { $0.order.touch(id, at: now) } ?? revive { try $0.session(id: id) }
    }

    /// A saved session, made live again (or the live one, if another request revived it first).
    private func revive(_ load: (any StateStore) throws -> StoredSession?, now: ContinuousClock.Instant = .now) -> Session? {
        guard let store else { return nil }
        let stored: StoredSession?
        do {
            stored = try load(store)
        } catch {
            logger.error("could not read a saved session", metadata: ["error": "\(error)"])
            return nil
        }
        guard let stored else { return nil }
        let session = Session(id: stored.id, shareID: stored.shareID, now: now, store: store, saved: stored.lists, logger: logger)
        return insert(session, now: now)
    }

    /// Marks a session as seen now (heartbeats do, for sessions with open streams).
    func touch(_ session: Session, now: ContinuousClock.Instant = .now) {
        state.withLock { _ = $0.order.touch(session.id, at: now) }
    }

    func create(now: ContinuousClock.Instant = .now) -> Session {
        let session = Session(id: .random(), shareID: .random(), now: now, store: store, logger: logger)
        if let store {
            do {
                try store.saveSession(id: session.id, shareID: session.shareID)
            } catch {
                logger.error("could not save a new session", metadata: ["error": "\(error)"])
            }
        }
        return insert(session, now: now)
    }

    /// Adds a session as the newest, evicting the longest idle when full (an evicted session
    /// stays saved: a later request brings it back). Returns the live session for its id.
    private func insert(_ session: Session, now: ContinuousClock.Instant) -> Session {
        let (live, evicted) = state.withLock { state -> (Session, Session?) in
            if let existing = state.order.touch(session.id, at: now) { return (existing, nil) }
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
            return (session, victim)
        }
        evicted?.closeStreams()
        return live
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
        for session in expired {
            session.closeStreams()
            do {
                try store?.deleteSession(id: session.id)
            } catch {
                logger.error("could not delete an expired session", metadata: ["error": "\(error)"])
            }
        }
        return expired.count
    }

    var all: [Session] { state.withLock { $0.order.values } }
}
