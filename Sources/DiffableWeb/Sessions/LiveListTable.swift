import Synchronization

/// The one live copy of each saved list in this process, by its key, for as long as anything
/// still holds it; and one maker at a time per list.
///
/// A session evicted from memory is brought back from the store by its next request, as a new
/// ``Session``. Its lists must not be made again from the store while an old copy is still in
/// use (a request that looked the session up before it was evicted, a write still committing):
/// two copies would write the same versions, and one copy's acknowledged
/// changes would be lost. So the table keeps a weak reference to every saved list, and a
/// session takes the live copy when there is one. A copy is gone from here once nothing holds
/// it, which is after its last write was saved (a write holds its list until its save is
/// answered). Makers of one list take turns (``making(_:_:)``): a maker that finds no live copy
/// reads the store knowing that no copy can be writing, nor be made and written meanwhile from
/// an older read.
final class LiveListTable: Sendable {
    private struct Entry {
        weak var list: LiveList?
    }
    private struct State {
        var entries: [ListKey: Entry] = [:]
        /// Entries counted after the last purge of dead ones (purges cost O(entries), so they
        /// run once the table has doubled: O(1) amortized per insert).
        var purgedCount = 0
        /// Lists being made, with the makers waiting their turn.
        var making: [ListKey: [CheckedContinuation<Void, Never>]] = [:]
    }
    private let state = Mutex(State())

    /// The live, unretired copy of a list, if there is one.
    func live(_ key: ListKey) -> LiveList? {
        state.withLock { state in
            guard let list = state.entries[key]?.list, !list.isRetired else { return nil }
            return list
        }
    }

    /// Makes `list` the live copy of `key` (called by its maker, in ``making(_:_:)``, having
    /// found none).
    func insert(_ list: LiveList, as key: ListKey) {
        state.withLock { state in
            state.entries[key] = Entry(list: list)
            if state.entries.count > 2 * state.purgedCount + 64 {
                state.entries = state.entries.filter { $0.value.list != nil }
                state.purgedCount = state.entries.count
            }
        }
    }

    /// Runs `body` as the only maker of the list `key` in this process (others wait their
    /// turn, suspended: no thread is blocked).
    func making<T: Sendable>(_ key: ListKey, _ body: () async throws -> T) async throws -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state -> Bool in
                guard var waiting = state.making[key] else {
                    state.making[key] = []
                    return true
                }
                waiting.append(continuation)
                state.making[key] = waiting
                return false
            }
            if free { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard var waiting = state.making[key], !waiting.isEmpty else {
                    state.making[key] = nil
                    return nil
                }
                let first = waiting.removeFirst()
                state.making[key] = waiting
                return first
            }
            next?.resume()
        }
        return try await body()
    }

    /// Live copies in the table now (for tests and diagnostics).
    var count: Int { state.withLock { $0.entries.values.count { $0.list != nil } } }
}
