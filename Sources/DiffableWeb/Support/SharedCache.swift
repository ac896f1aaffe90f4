import Synchronization

/// A bounded cache that every session may read and fill at once: what a list computes from
/// shared, immutable data (a catalog's search results, the step between two of them) is
/// computed once for all sessions. It keeps what was used lately (`RecentlyUsed`'s two
/// generations), and the server empties it first when the process is short of memory, so a
/// list using it needs no lock and bounds nothing itself.
///
/// ```swift
/// static let results = SharedCache<String, [Mountain.ID]>(entryLimit: 512, bytesPerEntry: 5_000)
/// let ids = Self.results.value(for: query) { catalog.filtered(by: $0) }
/// ```
public final class SharedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries: Mutex<RecentlyUsed<Key, Value>>
    private let bytesPerEntry: Int
    private let bytesPerWeight: Int

    /// A cache of at most `entryLimit` entries whose weights add up to at most `weightLimit`
    /// (see ``insert(_:for:weight:)``). The server's memory accounting counts it as
    /// `bytesPerEntry` an entry plus `bytesPerWeight` a unit of weight.
    public init(entryLimit: Int, weightLimit: Int = .max, bytesPerEntry: Int = 64, bytesPerWeight: Int = 0) {
        entries = Mutex(RecentlyUsed(entryLimit: entryLimit, weightLimit: weightLimit))
        self.bytesPerEntry = max(0, bytesPerEntry)
        self.bytesPerWeight = max(0, bytesPerWeight)
        DroppableCaches.shared.add(self)
    }

    /// The value kept for `key` (a use of it), or `nil`.
    public func value(for key: Key) -> Value? {
        entries.withLock { $0.value(for: key) }
    }

    /// Keeps `value` for `key`, weighing `weight` (say, its size in elements).
    public func insert(_ value: Value, for key: Key, weight: Int = 0) {
        entries.withLock { $0.insert(value, for: key, weight: weight) }
    }

    /// The value kept for `key`, or `make(key)` kept and returned. `make` runs outside the
    /// cache's lock: two sessions missing the same key at once may both make it (the last
    /// one is kept), and a slow `make` blocks no other reader.
    public func value(for key: Key, weight: (Value) -> Int = { _ in 0 }, orMake make: (Key) throws -> Value) rethrows -> Value {
        if let kept = value(for: key) { return kept }
        let made = try make(key)
        insert(made, for: key, weight: weight(made))
        return made
    }

    /// The entries kept.
    public var count: Int { entries.withLock { $0.count } }
    /// Their weight.
    public var weight: Int { entries.withLock { $0.weight } }

    /// Drops everything.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

extension SharedCache: DroppableCache {
    func dropAll() -> Int {
        entries.withLock { entries in
            let held = entries.count * bytesPerEntry + entries.weight * bytesPerWeight
            entries.removeAll()
            return held
        }
    }

    var heldBytes: Int { entries.withLock { $0.count * bytesPerEntry + $0.weight * bytesPerWeight } }
}
