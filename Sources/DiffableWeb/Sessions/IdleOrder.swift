/// Values by key, in the order they were last seen: a dictionary whose entries are also linked
/// oldest to newest, so that looking up, marking seen, removing, and finding the oldest are all
/// O(1) (no heap to re-balance, no scan).
struct IdleOrder<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var seen: ContinuousClock.Instant
        var older: Key?
        var newer: Key?
    }

    private var entries: [Key: Entry] = [:]
    private var oldestKey: Key?
    private var newestKey: Key?

    var count: Int { entries.count }

    /// Every value, oldest first.
    var values: [Value] {
        var result: [Value] = []
        result.reserveCapacity(entries.count)
        var key = oldestKey
        while let current = key, let entry = entries[current] {
            result.append(entry.value)
            key = entry.newer
        }
        return result
    }

    /// The least recently seen value and when it was seen.
    var oldestEntry: (value: Value, seen: ContinuousClock.Instant)? {
        oldestKey.flatMap { entries[$0] }.map { ($0.value, $0.seen) }
    }

    /// Up to `limit` values, oldest first.
    func oldest(_ limit: Int) -> [Value] {
        var result: [Value] = []
        var key = oldestKey
        while result.count < limit, let current = key, let entry = entries[current] {
            result.append(entry.value)
            key = entry.newer
        }
        return result
    }

    func value(for key: Key) -> Value? { entries[key]?.value }

    /// Adds a value as the newest (replacing any value under the same key).
    mutating func insertNewest(_ key: Key, _ value: Value, at now: ContinuousClock.Instant) {
        remove(key)
        entries[key] = Entry(value: value, seen: now, older: newestKey, newer: nil)
        if let newestKey { update(newestKey) { $0.newer = key } } else { oldestKey = key }
        newestKey = key
    }

    /// Marks a value seen at `now`, making it the newest; `nil` if there is none under `key`.
    /// The newest already (one session typing) only has its time set.
    mutating func touch(_ key: Key, at now: ContinuousClock.Instant) -> Value? {
        guard var entry = entries[key] else { return nil }
        entry.seen = now
        if newestKey != key {
            unlink(key, entry)
            entry.older = newestKey
            entry.newer = nil
            if let newestKey { update(newestKey) { $0.newer = key } } else { oldestKey = key }
            newestKey = key
        }
        entries[key] = entry
        return entry.value
    }

    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        unlink(key, entry)
        return entry.value
    }

    /// Detaches `key` from its neighbours (its own entry is left to the caller).
    private mutating func unlink(_ key: Key, _ entry: Entry) {
        if let older = entry.older { update(older) { $0.newer = entry.newer } } else { oldestKey = entry.newer }
        if let newer = entry.newer { update(newer) { $0.older = entry.older } } else { newestKey = entry.older }
    }

    /// Changes the entry under `key`, if any, read and written back whole: `entries[key]?.field =`
    /// goes through the dictionary's `_modify` coroutine, which allocated its frame on the heap
    /// (a dozen mallocs a keystroke among the session lookup's touches, in perf).
    private mutating func update(_ key: Key, _ change: (inout Entry) -> Void) {
        guard var entry = entries[key] else { return }
        change(&entry)
        entries[key] = entry
    }
}
