import Synchronization

/// The saves a request's answer waits for, when the answer is promised rather than awaited.
///
/// A write is answered only once it is saved. A request that awaited its save was resumed on
/// the cooperative pool when the store's thread committed it, only to hand its response on: on
/// the SQLite store that hop was a thread woken and a context switch per request, a fifth of
/// the operations route's CPU. Within a request that answers through a ``SaveDeferral``
/// (`WebApp.respond(_:)`), a write whose save is still on its way registers its receipt here
/// and returns at once; the request builds its response as if saved, and the response is
/// promised (MicroHTTP's `ResponsePromise`): whoever completes the last receipt (the store's
/// thread) sends it, or the error response when a save failed. Nothing changes for the client: the
/// answer still goes out after the commit, and its events before it.
///
/// A receipt that may lose a race (``SaveReceipt/mayLoseRace``) is not deferred: its request
/// runs again when it does (``WebApp/retryingLostRace(_:_:_:_:)``).
final class SaveDeferral: Sendable {
    /// The deferral of the request this task serves (`nil`: saves are awaited).
    @TaskLocal static var current: SaveDeferral?

    private struct State {
        var pending = 0
        var failure: (any Error)?
        /// Called once the request's response is known and every save has completed.
        var done: (@Sendable ((any Error)?) -> Void)?
    }

    private let state = Mutex(State())

    /// A save the response waits for.
    func add(_ receipt: SaveReceipt) {
        state.withLock { $0.pending += 1 }
        receipt.whenComplete { [self] result in
            let done = state.withLock { state -> (@Sendable ((any Error)?) -> Void, (any Error)?)? in
                state.pending -= 1
                if case .failure(let error) = result, state.failure == nil { state.failure = error }
                guard state.pending == 0, let done = state.done else { return nil }
                state.done = nil
                return (done, state.failure)
            }
            if let (done, failure) = done { done(failure) }
        }
    }

    /// The outcome of every save added (`nil`: all saved; else the first failure), now if none
    /// is on its way (`.some`), else `.none` and `handler` gets it from whoever completes the
    /// last one.
    func settle(or handler: @escaping @Sendable ((any Error)?) -> Void) -> (any Error)?? {
        state.withLock { state in
            if state.pending == 0 { return .some(state.failure) }
            state.done = handler
            return .none
        }
    }
}
