import ProcessMemory
import Synchronization

/// The memory the sessions of a server hold (their lists' identifiers, event logs and caches,
/// as ``MemoryCost`` reckons them), against a limit for the whole server.
///
/// Every session's ``MemoryAccount`` adds to it. Counts move as writes happen (a write adds
/// what it inserted and takes back what it deleted; a list that is freed returns all it held),
/// never by walking the lists. When a write would pass the limit, the registry first evicts
/// idle sessions (``SessionRegistry/relieveMemory()``: they stay saved in the store), and if
/// that is not enough the write is refused with `503 memory_full` and `Retry-After`.
///
/// ```swift
/// let budget = MemoryBudget(limit: 512 << 20)
/// let account = MemoryAccount(limit: 16 << 20, budget: budget)
/// try account.reserve(4_096)  // throws when the session or the server would pass its limit
/// ```
/// - Complexity: every operation is O(1) (atomics).
final class MemoryBudget: Sendable {
    /// Bytes the sessions may hold together; 0: no limit.
    let limit: Int
    /// The process's memory, of which this is a share: while it is full (RSS at its limit even
    /// after shedding), nothing may grow (`503 memory_full`), whatever this budget says.
    let governor: MemoryGovernor?
    private let used = Atomic<Int>(0)
    /// Called (once at a time) when a reservation would pass the limit, to free memory (evict
    /// idle sessions); set once by the web app.
    private let relief = Mutex<(@Sendable (_ sparing: MemoryAccount?) -> Void)?>(nil)
    private let relieving = Atomic<Bool>(false)
    /// Writes refused because the server was full (for logs and tests).
    let refusals = Atomic<Int>(0)

    init(limit: Int, governor: MemoryGovernor? = nil) {
        self.limit = max(0, limit)
        self.governor = governor
    }

    var usedBytes: Int { used.load(ordering: .relaxed) }

    var isExceeded: Bool { limit > 0 && usedBytes > limit }

    func setRelief(_ relieve: @escaping @Sendable (_ sparing: MemoryAccount?) -> Void) {
        relief.withLock { $0 = relieve }
    }

    func add(_ bytes: Int) {
        if bytes != 0 { used.wrappingAdd(bytes, ordering: .relaxed) }
    }

    /// Checks that the process may grow (its ``MemoryGovernor`` is not full) and that `bytes`
    /// more fit this budget, after freeing what the relief can (idle sessions evicted, but not
    /// the one of `sparing`, which asks) when they do not at first.
    /// - Throws: ``MemoryBudgetError/process(limit:)`` or ``MemoryBudgetError/server(limit:)``.
    func reserve(_ bytes: Int, sparing: MemoryAccount? = nil) throws(MemoryBudgetError) {
        guard bytes > 0 else { return }
        // (The governor counts its own refusals.)
        if let governor, !governor.admitsGrowth() { throw .process(limit: governor.limit) }
        guard fits(bytes, sparing: sparing) else {
            refusals.add(1, ordering: .relaxed)
            throw .server(limit: limit)
        }
    }

    /// Whether `bytes` more fit, after freeing what the relief can (idle sessions evicted, but
    /// not the one of `sparing`, which asks) when they do not at first.
    func fits(_ bytes: Int, sparing: MemoryAccount? = nil) -> Bool {
        guard limit > 0, bytes > 0 else { return true }
        if usedBytes + bytes <= limit { return true }
        if relieving.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            defer { relieving.store(false, ordering: .releasing) }
            relief.withLock { $0 }?(sparing)
        }
        return usedBytes + bytes <= limit
    }
}

/// What one session's lists hold, against the session's limit and the server's ``MemoryBudget``.
final class MemoryAccount: Sendable {
    /// Bytes this session may hold; 0: no limit of its own.
    let limit: Int
    let budget: MemoryBudget?
    private let used = Atomic<Int>(0)

    init(limit: Int, budget: MemoryBudget?) {
        self.limit = max(0, limit)
        self.budget = budget
    }

    var usedBytes: Int { used.load(ordering: .relaxed) }

    /// Counts `bytes` more (or fewer, when negative), whatever the limits: memory that is
    /// already held (a list brought back from the store, events logged).
    func add(_ bytes: Int) {
        guard bytes != 0 else { return }
        used.wrappingAdd(bytes, ordering: .relaxed)
        budget?.add(bytes)
    }

    /// Checks that `growth` more bytes fit this session and the server (a write that would
    /// grow the session's lists by that much). Counts nothing: the write adds what it made.
    /// - Throws: ``MemoryBudgetError`` naming the limit that would be passed.
    func check(growth: Int) throws(MemoryBudgetError) {
        guard growth > 0 else { return }
        let after = usedBytes + growth
        if limit > 0, after > limit { throw .session(needed: after, limit: limit) }
        try budget?.reserve(growth, sparing: self)
    }
}

/// A write refused because it would pass a memory limit; the list is left as it was.
enum MemoryBudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session would hold `needed` bytes; it may hold `limit`.
    case session(needed: Int, limit: Int)
    /// The server's sessions hold their whole budget, even after evicting the idle ones.
    case server(limit: Int)
    /// The process is at its memory limit (`--memory-limit`), even after shedding what it can.
    case process(limit: Int)
    /// The event streams hold their whole budget (`--stream-buffer-total`): a new one is refused.
    case streams(limit: Int)

    var description: String {
        switch self {
        case .session(let needed, let limit):
            "The change would take this session's lists to \(MemoryBudgetError.mebibytes(needed)); a session holds at most "
                + "\(MemoryBudgetError.mebibytes(limit)) (--session-memory). Delete items or make a new session"
        case .server(let limit):
            "The server's sessions hold all of their \(MemoryBudgetError.mebibytes(limit)) (--memory-total); try again shortly"
        case .streams(let limit):
            "The server's event streams hold all the memory they may (\(MemoryBudgetError.mebibytes(limit)): a quarter of --memory-limit, or --stream-buffer-total for unsent bytes); try again shortly"
        case .process(let limit):
            "The server is at its memory limit, \(MemoryBudgetError.mebibytes(limit)) (--memory-limit), even after shedding caches, idle sessions and slow streams; try again shortly"
        }
    }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }
}
