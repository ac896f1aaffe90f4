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
///
/// Only the request's own task defers, and only until its response is known: a task-local is
/// inherited by the unstructured tasks a demo starts while it handles a request (Photos loads
/// its pages and images so), and their writes are not the request's: they await their saves as
/// anywhere else, and a failure of theirs never turns the request's answer into an error.
final class SaveDeferral: Sendable {
    /// The deferral of the request this task serves (`nil`: saves are awaited).
    @TaskLocal static var current: SaveDeferral?

    private struct State {
        var pending = 0
        var failure: (any Error)?
        /// Called once the request's response is known and every save has completed.
        var done: (@Sendable ((any Error)?) -> Void)?
        /// The response is known: later saves are not the request's.
        var closed = false
    }

    private let state = Mutex(State())
    /// The request's task (its identity's hash: `UnsafeCurrentTask` may not be kept).
    private let owner: Int?

    /// A deferral for the request the current task serves.
    init() {
        owner = withUnsafeCurrentTask { $0?.hashValue }
    }

    /// The deferral a write in the current task may join: ``current`` when this task is the
    /// request's own, else `nil`. (Once the response is known, ``add(_:first:)`` says so.)
    static var forCurrentTask: SaveDeferral? {
        guard let deferral = current, let owner = deferral.owner,
              withUnsafeCurrentTask(body: { $0?.hashValue }) == owner else { return nil }
        return deferral
    }

    /// A save the response waits for; `false` (nothing added) once the response is known.
    /// When it completes, `first` runs before the response may be sent (the list's events go
    /// out before the answer).
    func add(_ receipt: SaveReceipt, first: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Bool {
        let added = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.pending += 1
            return true
        }
        guard added else { return false }
        receipt.whenComplete { [self] result in
            first(result)
            let done = state.withLock { state -> (@Sendable ((any Error)?) -> Void, (any Error)?)? in
                state.pending -= 1
                if case .failure(let error) = result, state.failure == nil { state.failure = error }
                guard state.pending == 0, let done = state.done else { return nil }
                state.done = nil
                return (done, state.failure)
            }
            if let (done, failure) = done { done(failure) }
        }
        return true
    }

    /// The outcome of every save added (`nil`: all saved; else the first failure) if none is on
    /// its way, the deferral then closed; `.none` while some are (nothing changes).
    func settledNow() -> (any Error)?? {
        state.withLock { state in
            guard state.pending == 0 else { return .none }
            state.closed = true
            return .some(state.failure)
        }
    }

    /// The outcome of every save added (`nil`: all saved; else the first failure), now if none
    /// is on its way (`.some`), else `.none` and `handler` gets it from whoever completes the
    /// last one.
    func settle(or handler: @escaping @Sendable ((any Error)?) -> Void) -> (any Error)?? {
        state.withLock { state in
            state.closed = true
            if state.pending == 0 { return .some(state.failure) }
            state.done = handler
            return .none
        }
    }
}
