import Logging
import Synchronization

/// Every live session, bounded in number and in idle time.
///
/// A session is idle when it has no open event stream; idle sessions older than
/// `idleTimeout` are dropped by ``sweep(now:)``, and when the store is full the session idle
/// the longest is evicted to make room.
///
/// # In the store
/// A session is saved when it is made (one that cannot be saved is refused:
/// ``ListStoreError/unavailable(_:)``, answered 503), and one evicted from memory stays saved:
/// its next request brings it back, taking the live copies of its lists if a request still
/// uses them (``LiveListTable``: one writer per list). The store deletes what nobody has seen
/// for `idleTimeout`: each ``sweep(now:)`` marks the sessions seen since the last one (and
/// those evicted meanwhile) as seen, then deletes the rest that are idle, so the store holds
/// about the sessions of one idle timeout, however many were evicted.
///
/// # Memory
/// Each session's lists are charged to its ``MemoryAccount`` (at most `sessionMemoryLimit`),
/// and every account to the server's ``MemoryBudget``. When a write would pass the budget,
/// ``relieveMemory()`` evicts idle sessions, the longest idle first (they stay saved in the
/// store, as any evicted session); a write that still does not fit is refused, and so is a new
/// session (`503 memory_full`, `Retry-After`).
///
/// Sessions are kept in the order they were last seen (an intrusive doubly linked list over
/// the dictionary, ``IdleOrder``), so a lookup, a touch, an eviction and each expired session
/// cost O(1): nothing scans the store.
final class SessionRegistry: Sendable {
    let maximumCount: Int
    let idleTimeout: Duration
    /// How many of the longest-idle sessions an eviction looks at to find one without an open
    /// stream, and how many times: watched sessions met on the way are marked seen (moved to the
    /// newest end: they are not idle) and it looks again, so an eviction does not depend on how
    /// recently ``SessionMaintenance`` marked them (a quarter of the idle timeout).
    static let evictionScan = 8
    static let evictionPasses = 4

    private struct State {
        var order = IdleOrder<SessionID, Session>()
        /// Share id → cookie id.
        var shared: [SessionID: SessionID] = [:]
        /// Sessions seen since the last sweep (evicted ones too): the sweep marks them seen in
        /// the store. A set kept under this lock, not instants, so that no touch falls between
        /// two sweeps.
        var seenSinceSweep = Set<SessionID>()

        mutating func touch(_ id: SessionID, at now: ContinuousClock.Instant, marking: Bool) -> Session? {
            let found = order.touch(id, at: now)
            if marking, found != nil { seenSinceSweep.insert(id) }
            return found
        }
    }
    private let state = Mutex(State())
    /// The store's part of the last sweep: the next one starts after it (marks before deletes).
    private let storeSweep = Mutex<Task<Void, Never>?>(nil)
    /// Where sessions outlive the process (`nil`: memory only).
    let store: (any SessionStore)?
    /// The live copy of each saved list, shared by every session made here.
    let liveLists = LiveListTable()
    private let logger: Logger
    /// What all sessions' lists hold (`nil`: not counted).
    let memoryBudget: MemoryBudget?
    /// What one session's lists may hold (0: no limit of their own).
    let sessionMemoryLimit: Int
    /// A new session is refused unless this much more fits the server's budget.
    static let sessionReserve = 64 * 1024
    /// How many of the longest-idle sessions a relief looks at, and evicts at most, per pass.
    static let reliefScan = 64
    static let reliefEvictions = 4_096
    /// Sessions that hold less than this are not evicted to free memory: it would free next to
    /// nothing (a session that only searched the Mountains shares the search cache's lists),
    /// and with `--memory-only` they would be lost.
    static let evictionMinimumBytes = 16 * 1024
    /// Sessions evicted to free memory (the sessions' budget, or the process's governor).
    let memoryEvictions = Atomic<Int>(0)

    init(maximumCount: Int, idleTimeout: Duration, store: (any SessionStore)? = nil, memoryBudget: MemoryBudget? = nil,
         sessionMemoryLimit: Int = 0, logger: Logger = Logger(label: "DiffableWeb")) {
        self.maximumCount = max(1, maximumCount)
        self.idleTimeout = idleTimeout
        self.store = store
        self.memoryBudget = memoryBudget
        self.sessionMemoryLimit = max(0, sessionMemoryLimit)
        self.logger = logger
        memoryBudget?.setRelief { [weak self] sparing in self?.relieveMemory(sparing: sparing) }
    }

    var count: Int { state.withLock { $0.order.count } }

    /// The session named by `cookie`, or a new one when the cookie is missing, malformed,
    /// forged or expired. `isNew` tells the caller to set the cookie.
    /// - Throws: ``ListStoreError/unavailable(_:)`` when the store can neither read the
    ///   session nor save a new one (nothing is handed out that a restart would not know).
    func session(cookie: String?, now: ContinuousClock.Instant = .now) async throws -> (session: Session, isNew: Bool) {
        if let cookie, let id = SessionID(cookie), let existing = try await lookup(id, now: now) {
            return (existing, false)
        }
        return (try await create(now: now), true)
    }

    /// A session by its public share id (for scripts attaching to a browser's session); one
    /// the store has (from a previous run, or another process) is brought back.
    /// - Throws: ``ListStoreError/unavailable(_:)`` when the store cannot be read.
    func lookup(shareID: SessionID, now: ContinuousClock.Instant = .now) async throws -> Session? {
        let found = state.withLock { state -> Session? in
            guard let id = state.shared[shareID] else { return nil }
            return state.touch(id, at: now, marking: store != nil)
        }
        if let found { return found }
        return try await revive(now: now) { try await $0.session(shareID: shareID) }
    }

    /// An existing session by its cookie secret; one the store has is brought back.
    /// - Throws: ``ListStoreError/unavailable(_:)`` when the store cannot be read.
    func lookup(_ id: SessionID, now: ContinuousClock.Instant = .now) async throws -> Session? {
        if let found = state.withLock({ $0.touch(id, at: now, marking: store != nil) }) { return found }
        return try await revive(now: now) { try await $0.session(id: id) }
    }

    /// A saved session, made live again (or the live one, if another request revived it first).
    private func revive(now: ContinuousClock.Instant, _ load: (any SessionStore) async throws -> StoredSession?) async throws -> Session? {
        guard let store else { return nil }
        let stored: StoredSession?
        do {
            stored = try await load(store)
        } catch {
            logger.error("could not read a saved session", metadata: ["error": "\(error)"])
            throw ListStoreError.unavailable(String(describing: error))
        }
        guard let stored else { return nil }
        return insert(makeSession(id: stored.id, shareID: stored.shareID, now: now), now: now)
    }

    private func makeSession(id: SessionID, shareID: SessionID, now: ContinuousClock.Instant) -> Session {
        Session(id: id, shareID: shareID, now: now, store: store, liveLists: liveLists,
                memory: MemoryAccount(limit: sessionMemoryLimit, budget: memoryBudget), logger: logger)
    }

    /// A live session by its cookie secret (never reads the store, never touches).
    func existing(_ id: SessionID) -> Session? {
        state.withLock { $0.order.value(for: id) }
    }

    /// Marks a session as seen now (``SessionMaintenance`` does, every quarter of the idle
    /// timeout, for sessions with open streams).
    func touch(_ session: Session, now: ContinuousClock.Instant = .now) {
        state.withLock { _ = $0.touch(session.id, at: now, marking: store != nil) }
    }

    /// A new session, saved before it is handed out.
    /// - Throws: ``ListStoreError/unavailable(_:)`` when the store cannot save it (a full
    ///   disk): a session a restart would not know is never acknowledged.
    func create(now: ContinuousClock.Instant = .now) async throws -> Session {
        try memoryBudget?.reserve(Self.sessionReserve)
        let session = makeSession(id: .random(), shareID: .random(), now: now)
        if let store {
            do {
                try await store.saveSession(id: session.id, shareID: session.shareID)
            } catch {
                logger.error("could not save a new session", metadata: ["error": "\(error)"])
                throw ListStoreError.unavailable(String(describing: error))
            }
        }
        return insert(session, now: now)
    }

    /// Adds a session as the newest, evicting the longest idle when full (an evicted session
    /// stays saved: a later request brings it back, within the idle timeout). Returns the live
    /// session for its id.
    private func insert(_ session: Session, now: ContinuousClock.Instant) -> Session {
        let (live, evicted) = state.withLock { state -> (Session, Session?) in
            if let existing = state.order.touch(session.id, at: now) { return (existing, nil) }
            var victim: Session?
            if state.order.count >= maximumCount {
                // The longest idle without an open stream, among the first few of each pass;
                // when every pass finds only watched ones, the longest idle.
                var chosen: Session?
                for _ in 0..<Self.evictionPasses where chosen == nil {
                    let candidates = state.order.oldest(Self.evictionScan)
                    chosen = candidates.first { $0.openStreamCount == 0 }
                    if chosen == nil {
                        for watched in candidates { _ = state.touch(watched.id, at: now, marking: store != nil) }
                    }
                }
                if let chosen = chosen ?? state.order.oldest(1).first {
                    // Stays in `seenSinceSweep` if it was seen: the next sweep marks it seen.
                    state.order.remove(chosen.id)
                    state.shared[chosen.shareID] = nil
                    victim = chosen
                }
            }
            state.order.insertNewest(session.id, session, at: now)
            state.shared[session.shareID] = session.id
            return (session, victim)
        }
        if let evicted {
            evicted.closeStreams()
            WebMetrics.evicted(.capacity)
        }
        return live
    }

    /// Drops sessions idle longer than the timeout; a session with an open stream is not idle
    /// (it is marked seen now and kept). Then, in the background, the store marks the sessions
    /// seen since the last sweep as seen, and deletes every session idle longer than the
    /// timeout (expired here, evicted earlier, or left by an earlier run): the store keeps
    /// about one idle timeout's sessions. A later `now` (tests) ages every session as much.
    /// - Complexity: O(sessions expired, kept, or seen since the last sweep).
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        let started = ContinuousClock.now
        let (expired, seen) = state.withLock { state -> ([Session], [SessionID]) in
            var expired: [Session] = []
            var kept = 0
            while let (oldest, seen) = state.order.oldestEntry, now - seen > idleTimeout, kept < state.order.count {
                if oldest.openStreamCount > 0 {
                    _ = state.touch(oldest.id, at: now, marking: store != nil)
                    kept += 1
                } else {
                    state.order.remove(oldest.id)
                    state.shared[oldest.shareID] = nil
                    expired.append(oldest)
                }
            }
            // Every session still here was seen within the timeout: made or brought back (the
            // store marked it then), or seen since (marked now, before anything idle is deleted).
            defer { state.seenSinceSweep.removeAll(keepingCapacity: true) }
            return (expired, Array(state.seenSinceSweep))
        }
        for session in expired { session.closeStreams() }
        WebMetrics.evicted(.idle, count: expired.count)
        if let store {
            let (idle, logger) = (idleTimeout, logger)
            storeSweep.withLock { last in
                let previous = last
                last = Task {
                    await previous?.value
                    do {
                        try await store.touchSessions(seen)
                        // Idle as of this sweep's `now`: a session kept here (seen within the
                        // timeout then) is marked no earlier in the store, so it is never deleted.
                        let elapsed = ContinuousClock.now - started
                        let deleted = try await store.deleteSessions(idleFor: idle - (now - started) + elapsed)
                        if deleted > 0 { logger.debug("deleted \(deleted) idle sessions from the store") }
                    } catch {
                        logger.error("could not delete idle sessions", metadata: ["error": "\(error)"])
                    }
                }
            }
        }
        return expired.count
    }

    /// Evicts idle sessions (no open stream), the longest idle first, until the sessions'
    /// memory is an eighth under the budget, or none of the longest idle is idle. An evicted
    /// session stays saved in the store (with `--memory-only` it is gone, as one evicted past
    /// `maximumCount` is); its lists are freed, and uncharged, once no request uses them.
    /// Called by the ``MemoryBudget`` when a write or a new session would not fit; the session
    /// whose write asks (its account: `sparing`) is not evicted.
    /// - Returns: how many sessions were evicted.
    /// - Complexity: O(evicted · ``reliefScan``).
    @discardableResult
    func relieveMemory(sparing: MemoryAccount? = nil) -> Int {
        guard let budget = memoryBudget, budget.limit > 0 else { return 0 }
        let target = budget.limit - budget.limit / 8
        var evicted = 0
        while budget.usedBytes > target, evicted < Self.reliefEvictions, evictLongestIdle(sparing: sparing) != nil {
            evicted += 1
        }
        if evicted > 0 {
            logger.info("memory budget: evicted \(evicted) idle sessions", metadata: ["held": "\(budget.usedBytes)", "budget": "\(budget.limit)"])
        }
        return evicted
    }

    /// Evicts idle sessions, the longest idle first, until what they held adds up to
    /// `bytes` (at least one, when any is idle): the process's memory governor's second step.
    /// Evicted sessions stay saved in the store, as ``relieveMemory(sparing:)``'s do.
    /// - Returns: how many were evicted, and what their lists held.
    func evictIdle(freeing bytes: Int) -> (evicted: Int, freed: Int) {
        var evicted = 0, freed = 0
        repeat {
            guard let held = evictLongestIdle(sparing: nil) else { break }
            evicted += 1
            freed += held
        } while freed < bytes && evicted < Self.reliefEvictions
        return (evicted, freed)
    }

    /// Evicts the longest idle session without open streams, holding at least
    /// ``evictionMinimumBytes``, among the ``reliefScan`` idle the longest (not `sparing`'s);
    /// returns the bytes it held, or `nil` when none is.
    private func evictLongestIdle(sparing: MemoryAccount?) -> Int? {
        let victim = state.withLock { state -> Session? in
            let idle = state.order.oldest(Self.reliefScan).first {
                $0.memory !== sparing && $0.openStreamCount == 0 && $0.memory.usedBytes >= Self.evictionMinimumBytes
            }
            guard let chosen = idle else { return nil }
            state.order.remove(chosen.id)
            state.shared[chosen.shareID] = nil
            return chosen
        }
        guard let victim else { return nil }
        let held = victim.memory.usedBytes
        victim.closeStreams()
        memoryEvictions.add(1, ordering: .relaxed)
        WebMetrics.evicted(.memory)
        return held
    }

    var all: [Session] { state.withLock { $0.order.values } }

    /// The store's part of the last sweep (tests wait for it).
    var lastStoreSweep: Task<Void, Never>? { storeSweep.withLock { $0 } }
}
