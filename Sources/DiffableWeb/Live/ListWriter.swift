/// A list's one writer: every change to the list (an action, a script's write, a demo's own
/// write, a stream that opens, a window that moves) runs here alone, in the order it arrived.
///
/// A waiting write suspends; it does not park a thread. Blocking on a contended lock inside a
/// handler would hold one of the few cooperative threads every handler needs (measured: 16
/// concurrent writers to one list dropped throughput from ~1,000 to ~150 requests/s). This is
/// the list's only serializer: its data source, events, saves and streams follow its order.
actor ListWriter {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
    }

    /// Hands the writer to the next waiter (it stays busy), or frees it.
    private func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }

    /// Runs `body` alone among the list's writes.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
