import Synchronization

/// A write on its way to a store that commits in groups (``SessionStore/announceWrite()``):
/// announced before the write waits for its list's writer, settled once the store's
/// ``SessionStore/write(_:from:_:undo:)`` has returned, or the write came to nothing. Settling
/// twice counts once, and a write dropped without settling settles then (an error, a cancelled
/// request): an announcement cannot leak.
///
/// A request that may write is announced as it starts (``WebApp/handle(_:)``), so that the
/// store knows of it while it is still being read and decoded: its first list write claims that
/// announcement (`claimRequest()`) rather than make its own, and the request settles it when it
/// ends, whatever it did.
public final class IncomingWrite: Sendable {
    /// The announcement of the request this task serves (`nil`: none).
    @TaskLocal static var request: IncomingWrite?

    private let settled = Atomic<Bool>(false), claimed = Atomic<Bool>(false)
    private let onSettle: @Sendable () -> Void

    init(onSettle: @escaping @Sendable () -> Void) { self.onSettle = onSettle }

    deinit { settle() }

    /// The request's announcement, for its first write (later writes announce their own).
    static func claimRequest() -> IncomingWrite? {
        guard let request, !request.claimed.exchange(true, ordering: .relaxed) else { return nil }
        return request
    }

    /// The write was handed over to the store (or will not be).
    public func settle() {
        guard !settled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onSettle()
    }
}
