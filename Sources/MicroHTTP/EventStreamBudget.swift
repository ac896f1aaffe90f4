import Synchronization

/// The memory that event streams of a server hold for bytes not yet handed to libmicrohttpd
/// (each stream's ``SendBuffer`` allocation, not only its unsent count), against
/// `Limits.maxEventStreamBufferTotalBytes`.
///
/// Each stream's own cap (`maxEventStreamBufferBytes`) bounds one slow client; this bounds them
/// all: 527 clients that never read, at 4 MiB each, took the process from 340 MB to 2 GB. When
/// a send leaves the total over the budget, the streams holding the most (the slowest readers)
/// are closed first with `.bufferBudgetExceeded` until it is back under. What is counted is
/// what is allocated, and what a cut frees leaves the process (see `SendBuffer`), so the
/// budget bounds RSS: 500 streams nobody read peaked at 690 MB with a 256 MiB budget when the
/// count was the unsent bytes of one growing array per stream and glibc kept what was freed.
final class EventStreamBudget: Sendable {
    /// 0: no budget.
    let limit: Int
    private let total = Atomic<Int>(0)
    private let enforcing = Atomic<Bool>(false)
    /// Streams closed to get back under the budget.
    let cuts = Atomic<Int>(0)
    private let streams = Mutex<(@Sendable () -> [EventStream])?>(nil)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Where the open streams come from (the server's registry), set once at start.
    func setStreams(_ provider: @escaping @Sendable () -> [EventStream]) {
        streams.withLock { $0 = provider }
    }

    var unsentBytes: Int { total.load(ordering: .relaxed) }

    func add(_ bytes: Int) {
        if bytes != 0 { total.wrappingAdd(bytes, ordering: .relaxed) }
    }

    var isExceeded: Bool { limit > 0 && total.load(ordering: .relaxed) > limit }

    /// Closes the streams holding the most until the total is within the budget. One
    /// caller at a time does the work; a concurrent caller returns at once (the first one is
    /// already cutting). Call without holding any stream's lock.
    /// - Complexity: O(n log n) in the open streams.
    func enforce() {
        guard limit > 0, enforcing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { enforcing.store(false, ordering: .releasing) }
        guard let provider = streams.withLock({ $0 }) else { return }
        let backlogs = provider().map { ($0, $0.heldByteCount) }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
        for (stream, _) in backlogs {
            guard total.load(ordering: .relaxed) > limit else { break }
            stream.abort(.bufferBudgetExceeded)
            cuts.add(1, ordering: .relaxed)
        }
    }
}
