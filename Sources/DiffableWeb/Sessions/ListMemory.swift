import Synchronization

/// What one live list holds in memory, charged to its session's ``MemoryAccount``: its
/// contents (kept as writes happen: ``MemoryCost/growth(of:)``), its event log and its caches.
///
/// A list may outlive the session that made it (an evicted session's list still used by a
/// request) and be taken by the session brought back in its place: ``attach(to:)`` moves the
/// charge to the new account. When the list is freed, what it held is returned.
final class ListMemory: Sendable {
    private struct State {
        var account: MemoryAccount?
        var contents = 0
        var log = 0
        var caches = 0
        var measured = 0
        var total: Int { contents + log + caches + measured }
    }
    private let state = Mutex(State())

    init(contents: Int = 0) {
        state.withLock { $0.contents = contents }
    }

    deinit {
        let (account, total) = state.withLock { ($0.account, $0.total) }
        account?.add(-total)
    }

    /// The session's account this list is charged to.
    var account: MemoryAccount? { state.withLock { $0.account } }

    /// Everything this list is charged for.
    var heldBytes: Int { state.withLock { $0.total } }

    /// Charges this list to `account` (moving the charge from the account it had).
    /// (Accounts are atomics: they are moved under this list's lock, so no change is counted
    /// in the wrong one.)
    func attach(to account: MemoryAccount) {
        state.withLock { state in
            guard state.account !== account else { return }
            state.account?.add(-state.total)
            account.add(state.total)
            state.account = account
        }
    }

    /// The contents grew (or shrank) by `bytes` (never below nothing: items a list shared with
    /// the search cache were not counted when they came, so deleting them frees none of its own).
    func addContents(_ bytes: Int) { change { $0.contents = max(0, $0.contents + bytes) } }

    /// The contents now cost `bytes` (a write undone, a list read again).
    func setContents(_ bytes: Int) { change { $0.contents = bytes } }

    var contents: Int { state.withLock { $0.contents } }

    /// The event log now holds `bytes`.
    func setLog(_ bytes: Int) { change { $0.log = bytes } }

    /// The list's caches (a snapshot's JSON) now hold `bytes`.
    func setCaches(_ bytes: Int) { change { $0.caches = bytes } }

    /// The sizes browsers measured for its cells now hold `bytes` (``MeasuredSizes``).
    func setMeasured(_ bytes: Int) { change { $0.measured = bytes } }

    /// What the caches hold (a write that changes the list drops them).
    var caches: Int { state.withLock { $0.caches } }

    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            let before = state.total
            body(&state)
            state.account?.add(state.total - before)
        }
    }
}
