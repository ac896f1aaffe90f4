import Synchronization

/// A cache the server may empty when the process is short of memory (the first thing the
/// ``ProcessMemory/MemoryGovernor`` sheds): it refills as it is used, at the cost of redoing
/// the work it saved.
protocol DroppableCache: AnyObject, Sendable {
    /// Empties the cache; returns the bytes it held, roughly (0: it was empty).
    func dropAll() -> Int
    /// The bytes it holds now, roughly.
    var heldBytes: Int { get }
}

/// The process's droppable caches (held weakly: a cache that is gone is forgotten).
final class DroppableCaches: Sendable {
    static let shared = DroppableCaches()

    private struct Entry: Sendable {
        weak var cache: (any DroppableCache)?
    }
    private let entries = Mutex<[Entry]>([])

    func add(_ cache: any DroppableCache) {
        entries.withLock { entries in
            entries.removeAll { $0.cache == nil }
            entries.append(Entry(cache: cache))
        }
    }

    private var live: [any DroppableCache] { entries.withLock { $0.compactMap(\.cache) } }

    /// Empties every cache; returns the bytes they held, roughly.
    func dropAll() -> Int {
        live.reduce(0) { $0 + $1.dropAll() }
    }

    /// What the caches hold together, roughly.
    var heldBytes: Int { live.reduce(0) { $0 + $1.heldBytes } }
}
