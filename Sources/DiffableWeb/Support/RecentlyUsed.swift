/// A bounded cache that keeps what was used lately: least-recently-used eviction,
/// approximated with two generations instead of a linked list.
///
/// New entries go into the young generation; a hit in the old one moves the entry back into
/// the young one. When the young generation is full (half the entries, or half the weight),
/// the old one is dropped and the young one becomes old. So the cache never holds more than
/// `entryLimit` entries (rounded down to even, at least 2), nor more than `weightLimit` weight
/// unless an entry alone weighs more than half of it (such an entry fills a generation by
/// itself), and an entry used again before `entryLimit / 2` others arrive is never dropped: the
/// steps many clients share stay while a flood of unique ones passes through.
///
/// ```swift
/// var results = RecentlyUsed<String, [Int]>(entryLimit: 512)
/// if let known = results.value(for: query) { return known }
/// results.insert(compute(query), for: query)
/// ```
/// - Complexity: O(1) amortized per lookup and insert. Not synchronized: keep it in a `Mutex`.
struct RecentlyUsed<Key: Hashable, Value> {
    private struct Generation {
        var entries: [Key: (value: Value, weight: Int)] = [:]
        var weight = 0
    }
    private var young = Generation()
    private var old = Generation()
    /// Entries kept at most.
    let entryLimit: Int
    /// What the entries' weights may add up to.
    let weightLimit: Int

    init(entryLimit: Int, weightLimit: Int = .max) {
        self.entryLimit = max(2, entryLimit)
        self.weightLimit = max(0, weightLimit)
    }

    /// The entries kept.
    var count: Int { young.entries.count + old.entries.count }
    /// Their weight.
    var weight: Int { young.weight + old.weight }

    /// The value kept for `key`, which counts as a use of it.
    mutating func value(for key: Key) -> Value? {
        if let hit = young.entries[key] { return hit.value }
        guard let hit = old.entries.removeValue(forKey: key) else { return nil }
        old.weight -= hit.weight
        add(hit, for: key)
        return hit.value
    }

    /// Keeps `value` for `key` (replacing what was kept), weighing `weight`.
    mutating func insert(_ value: Value, for key: Key, weight: Int = 0) {
        if let replaced = young.entries.removeValue(forKey: key) { young.weight -= replaced.weight }
        if let replaced = old.entries.removeValue(forKey: key) { old.weight -= replaced.weight }
        add((value, max(0, weight)), for: key)
    }

    /// Drops everything.
    mutating func removeAll() {
        young = Generation()
        old = Generation()
    }

    private mutating func add(_ entry: (value: Value, weight: Int), for key: Key) {
        if !young.entries.isEmpty, young.entries.count >= entryLimit / 2 || young.weight + entry.weight > weightLimit / 2 {
            swap(&young, &old)
            young.entries.removeAll(keepingCapacity: true)
            young.weight = 0
        }
        young.entries[key] = entry
        young.weight += entry.weight
    }
}
