/// What the server does for its sessions once a heartbeat interval (the heartbeats themselves
/// are a ``MicroHTTP/HeartbeatSchedule``'s, spread over the interval): idle lists drop their
/// layouts, watched sessions are marked seen, and idle sessions expire (``SessionRegistry/sweep(now:)``).
///
/// # Watched sessions
/// A session with an open stream never expires: the sweep keeps it, marking it seen when it
/// reaches the idle end, and an eviction passes over it (``SessionRegistry``). It is also marked
/// seen every ``touchInterval`` (a quarter of the idle timeout: 7.5 min by default), not every
/// round: with a store, marking it seen is what tells other processes (and this one's next
/// start) not to delete it, and the sweep writes those marks (`touchSessions`) for every
/// session seen since the previous sweep. So a watched session's row is never older than a
/// quarter of the idle timeout plus a round, well under the idle timeout after which a store
/// deletes it. Marking 10,000 watched sessions every 15 s, in memory and in SQLite twice, was
/// over a third of an idle server's CPU (docs/benchmarks-history.md, "Idle streams (session 11)").
///
/// # Idle layouts
/// Only the lists whose layout cache holds layouts are visited (``HeldLayouts``), not every
/// list of every session: an idle list drops its layouts after a round or two, and is not
/// visited again until it lays itself out again.
///
/// - Complexity: a round is O(lists holding layouts) plus what it expires; a round that marks
///   watched sessions also O(sessions) (each visited once, O(1) each).
struct SessionMaintenance {
    let sessions: SessionRegistry
    /// The layout caches that hold layouts (the app's).
    let layouts: HeldLayouts
    /// How often watched sessions are marked seen.
    let touchInterval: Duration
    /// Rounds between two marks (at least 1).
    let touchEvery: Int
    private(set) var rounds = 0

    init(sessions: SessionRegistry, layouts: HeldLayouts = HeldLayouts(), roundInterval: Duration) {
        self.sessions = sessions
        self.layouts = layouts
        touchInterval = sessions.idleTimeout / 4
        touchEvery = max(1, Int(touchInterval / max(roundInterval, .milliseconds(1))))
    }

    /// One round: layouts of lists nobody used since the last round are dropped, watched
    /// sessions are marked seen when it is their turn, and idle sessions expire.
    /// - Returns: how many watched sessions were marked seen, and how many sessions expired.
    @discardableResult
    mutating func round(now: ContinuousClock.Instant = .now) -> (touched: Int, expired: Int) {
        rounds += 1
        layouts.dropIdle()
        var touched = 0
        if rounds % touchEvery == 0 {
            for session in sessions.all where session.existingLists.values.contains(where: { $0.openStreamCount > 0 }) {
                sessions.touch(session, now: now)
                touched += 1
            }
        }
        return (touched, sessions.sweep(now: now))
    }
}
