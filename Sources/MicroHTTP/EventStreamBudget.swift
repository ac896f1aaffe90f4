import Synchronization

/// The memory that event streams of a server hold for bytes their clients have not taken,
/// against `Limits.maxEventStreamBufferTotalBytes`: each stream's ``SendBuffer`` allocation (not
/// only its unsent count) and the frame on its way to a socket of its own. Beside it, what the
/// gzip streams' deflate states cost (``deflateStateBytes``, see `GzipEncoder.stateBytes`).
///
/// Each stream's own cap (`maxEventStreamBufferBytes`) bounds one slow client; this bounds them
/// all: 527 clients that never read, at 4 MiB each, took the process from 340 MB to 2 GB. When
/// a send leaves the total over the budget, the streams furthest behind (the slowest readers;
/// a stream whose client takes everything is never cut) are closed first with `.bufferBudgetExceeded` until it is back under. What is counted is
/// what is allocated, and what a cut frees leaves the process (see `SendBuffer`), so the
/// budget bounds RSS: 500 streams nobody read peaked at 690 MB with a 256 MiB budget when the
/// count was the unsent bytes of one growing array per stream and glibc kept what was freed.
public final class EventStreamBudget: Sendable {
    /// 0: no budget.
    public let limit: Int
    private let total = Atomic<Int>(0)
    private let states = Atomic<Int>(0)
    private let enforcing = Atomic<Bool>(false)
    /// Streams closed to get back under the budget, or by ``cutSlowest(freeing:)``.
    public let cuts = Atomic<Int>(0)
    /// New streams its owner refused because the budget was full (counted by the owner).
    public let refusals = Atomic<Int>(0)
    private let streams = Mutex<(@Sendable () -> [EventStream])?>(nil)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Where the open streams come from (the server's registry), set once at start.
    func setStreams(_ provider: @escaping @Sendable () -> [EventStream]) {
        streams.withLock { $0 = provider }
    }

    /// What the streams hold for bytes their clients have not taken: their buffers' allocation
    /// and the frames on their way. What the budget's `limit` bounds, by cutting the streams
    /// furthest behind.
    public var unsentBytes: Int { total.load(ordering: .relaxed) }

    /// What the gzip streams' deflate states cost now. Not bounded by `limit` (no stream is
    /// behind for it: cutting one would not be fair); the owner refuses new streams on it.
    public var deflateStateBytes: Int { states.load(ordering: .relaxed) }

    /// Everything the streams hold (see ``EventStream/heldByteCount``).
    public var heldBytes: Int { unsentBytes + deflateStateBytes }

    func add(_ bytes: Int) {
        if bytes != 0 { total.wrappingAdd(bytes, ordering: .relaxed) }
    }

    func addState(_ bytes: Int) {
        if bytes != 0 { states.wrappingAdd(bytes, ordering: .relaxed) }
    }

    var isExceeded: Bool { limit > 0 && total.load(ordering: .relaxed) > limit }

    /// Closes the streams holding the most until the total is within the budget. One
    /// caller at a time does the work; a concurrent caller returns at once (the first one is
    /// already cutting). Call without holding any stream's lock.
    /// - Complexity: O(n log n) in the open streams.
    func enforce() {
        guard limit > 0, enforcing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { enforcing.store(false, ordering: .releasing) }
        for stream in slowestFirst() {
            guard total.load(ordering: .relaxed) > limit else { break }
            stream.abort(.bufferBudgetExceeded)
            cuts.add(1, ordering: .relaxed)
        }
    }

    /// Cuts the streams furthest behind (the most bytes their clients have not taken) until
    /// what they held adds up to `bytes`, at least one when any is behind: the process's memory
    /// governor does, when RSS nears its limit. A stream whose client takes everything is
    /// never cut. Returns how many were cut, and what they held.
    /// - Complexity: O(n log n) in the open streams.
    public func cutSlowest(freeing bytes: Int) -> (cut: Int, freed: Int) {
        var cut = 0, freed = 0
        for stream in slowestFirst() {
            freed += stream.heldByteCount
            stream.abort(.bufferBudgetExceeded)
            cut += 1
            if freed >= bytes { break }
        }
        cuts.add(cut, ordering: .relaxed)
        return (cut, freed)
    }

    /// The open streams whose clients are behind, the furthest behind first.
    private func slowestFirst() -> [EventStream] {
        guard let provider = streams.withLock({ $0 }) else { return [] }
        return provider().map { ($0, $0.backlogByteCount) }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.map(\.0)
    }
}
