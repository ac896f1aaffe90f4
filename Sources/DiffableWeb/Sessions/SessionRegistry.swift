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
final class SessionRegistry: Sendable {
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
    let store: (any SessionStore)?
    private let logger: Logger

    init(maximumCount: Int, idleTimeout: Duration, store: (any SessionStore)? = nil, logger: Logger = Logger(label: "DiffableWeb")) {
        self.maximumCount = max(1, maximumCount)
        self.idleTimeout = idleTimeout
        self.store = store
        self.logger = logger
    }

    var count: Int { state.withLock { $0.order.count } }

    /// The session named by `cookie`, or a new one when the cookie is missing, malformed,
    /// forged or expired. `isNew` tells the caller to set the cookie.
    func session(cookie: String?, now: ContinuousClock.Instant = .now) async -> (session: Session, isNew: Bool) {
        if let cookie, let id = SessionID(cookie), let existing = await lookup(id, now: now) {
            return (existing, false)
        }
        return (await create(now: now), true)
    }

    /// A session by its public share id (for scripts attaching to a browser's session); one
    /// the store has (from a previous run, or another process) is brought back.
    func lookup(shareID: SessionID, now: ContinuousClock.Instant = .now) async -> Session? {
        let found = state.withLock { state -> Session? in
            guard let id = state.shared[shareID] else { return nil }
            return state.order.touch(id, at: now)
        }
        if let found { return found }
        return await revive(now: now) { try await $0.session(shareID: shareID) }
    }

    /// An existing session by its cookie secret; one the store has is brought back.
    func lookup(_ id: SessionID, now: ContinuousClock.Instant = .now) async -> Session? {
        if let found = state.withLock({ $0.order.touch(id, at: now) }) { return found }
        return await revive(now: now) { try await $0.session(id: id) }
    }

    /// A saved session, made live again (or the live one, if another request revived it first).
    private func revive(now: ContinuousClock.Instant, _ load: (any SessionStore) async throws -> StoredSession?) async -> Session? {
        guard let store else { return nil }
        let stored: StoredSession?
        do {
            stored = try await load(store)
        } catch {
            logger.error("could not read a saved session", metadata: ["error": "\(error)"])
            return nil
        }
        guard let stored else { return nil }
        let session = Session(id: stored.id, shareID: stored.shareID, now: now, store: store, logger: logger)
        return insert(session, now: now)
    }

    /// A live session by its cookie secret (never reads the store, never touches).
    func existing(_ id: SessionID) -> Session? {
        state.withLock { $0.order.value(for: id) }
    }

    /// Marks a session as seen now (heartbeats do, for sessions with open streams).
    func touch(_ session: Session, now: ContinuousClock.Instant = .now) {
        state.withLock { _ = $0.order.touch(session.id, at: now) }
    }

    func create(now: ContinuousClock.Instant = .now) async -> Session {
        let session = Session(id: .random(), shareID: .random(), now: now, store: store, logger: logger)
        if let store {
            do {
                try await store.saveSession(id: session.id, shareID: session.shareID)
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
        for session in expired { session.closeStreams() }
        if let store, !expired.isEmpty || store.isShared {
            // A shared store deletes what no process wrote for the timeout (another process
            // may still serve a session this one let go); the embedded one what expired here.
            let (ids, idle, logger) = (expired.map(\.id), idleTimeout, logger)
            Task {
                do {
                    if store.isShared {
                        _ = try await store.deleteSessions(idleFor: idle)
                    } else {
                        for id in ids { try await store.deleteSession(id: id) }
                    }
                } catch {
                    logger.error("could not delete expired sessions", metadata: ["error": "\(error)"])
                }
            }
        }
        return expired.count
    }

    var all: [Session] { state.withLock { $0.order.values } }
}
