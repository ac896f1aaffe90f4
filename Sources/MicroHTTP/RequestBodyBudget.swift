import Synchronization

/// The memory request bodies take while they are read (each up to `Limits.maxBodyBytes`),
/// against `Limits.maxRequestBodyTotalBytes`: a crowd of clients uploading slowly cannot hold
/// more than that between them. A body that would pass it is refused (`503 server_busy`,
/// `Retry-After`, the connection closed); the bytes of a body are counted while it arrives and
/// given back when the handler receives it, or when the request ends first.
final class RequestBodyBudget: Sendable {
    /// 0: no budget.
    let limit: Int
    private let used = Atomic<Int>(0)
    /// Bodies refused because the total was reached.
    let refusals = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var usedBytes: Int { used.load(ordering: .relaxed) }

    /// Counts `bytes` more, unless they would pass the limit (then nothing is counted).
    func take(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let after = used.wrappingAdd(bytes, ordering: .relaxed).newValue
        guard limit > 0, after > limit else { return true }
        used.wrappingSubtract(bytes, ordering: .relaxed)
        refusals.add(1, ordering: .relaxed)
        return false
    }

    func give(_ bytes: Int) {
        if bytes > 0 { used.wrappingSubtract(bytes, ordering: .relaxed) }
    }
}
