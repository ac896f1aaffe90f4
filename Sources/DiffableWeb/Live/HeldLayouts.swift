import Synchronization

/// The layout caches that hold layouts now, so that a maintenance round visits those rather
/// than every list of every session: on an idle server a round costs what is cached, not how
/// many sessions there are (10,000 idle sessions meant 10,000 lists visited every 30 s).
///
/// A cache joins when it goes from no layouts to some (``LayoutCache``); a round drops what
/// nobody used since the round before and forgets the caches it left empty, and those of lists
/// that are gone (it holds them weakly: an evicted list's layouts are freed with it).
/// Lock order: this set's lock, then a cache's (a cache joins after releasing its own).
final class HeldLayouts: Sendable {
    private struct Held {
        weak var cache: LayoutCache?
    }

    private let caches = Mutex<[ObjectIdentifier: Held]>([:])

    /// `cache` holds layouts now.
    func holding(_ cache: LayoutCache) {
        caches.withLock { $0[ObjectIdentifier(cache)] = Held(cache: cache) }
    }

    /// Drops the layouts of the caches nobody asked since the previous call
    /// (``LayoutCache/dropIfIdle()``), and forgets the caches that are empty or gone.
    /// - Returns: how many layouts were dropped.
    /// - Complexity: O(caches holding layouts).
    @discardableResult
    func dropIdle() -> Int {
        let held = caches.withLock { $0.values.compactMap(\.cache) }
        let dropped = held.reduce(0) { $0 + $1.dropIfIdle() }
        caches.withLock { caches in
            // Checked under this lock: a cache given a layout since joins again after it.
            caches = caches.filter { _, held in (held.cache?.count ?? 0) > 0 }
        }
        return dropped
    }

    /// What a kept layout costs, roughly (frames of a screen or a section's arithmetic).
    static let layoutBytes = 16 * 1024

    /// Drops every layout held (the process is short of memory: they are made again when asked
    /// for). - Returns: how many were dropped.
    @discardableResult
    func dropAll() -> Int {
        let held = caches.withLock { $0.values.compactMap(\.cache) }
        var dropped = 0
        for cache in held {
            dropped += cache.count
            cache.removeAll()
        }
        caches.withLock { caches in
            caches = caches.filter { _, held in (held.cache?.count ?? 0) > 0 }
        }
        return dropped
    }

    /// How many caches hold layouts (as of the last round, or since).
    var count: Int { caches.withLock { $0.count } }
}
