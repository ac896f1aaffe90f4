import Synchronization

/// A response a handler hands over before it exists: the server sends it once someone fulfils
/// the promise, from any thread, without a task of the handler's waiting for it.
///
/// For an answer that waits on work another thread finishes (a save committed on a database's
/// own thread): that thread fulfils the promise and the response is queued from there, so no
/// task is resumed on the cooperative pool only to pass the response on (a thread woken, a
/// context switch, per request).
///
/// ```swift
/// let promise = ResponsePromise()
/// database.whenCommitted { ok in promise.fulfil(ok ? .json(["saved": true]) : failure) }
/// return .promised(promise)
/// ```
/// The first response given counts; one never given leaves the request unanswered until its
/// connection times out, so a promise must be fulfilled on every path, failures included.
public final class ResponsePromise: Sendable {
    private enum State {
        case waiting([@Sendable (Response) -> Void])
        case fulfilled(Response)
    }

    private let state = Mutex(State.waiting([]))

    public init() {}

    /// Gives the response (the first one counts) and calls what waits for it, on this thread.
    public func fulfil(_ response: Response) {
        let waiting = state.withLock { state -> [@Sendable (Response) -> Void] in
            guard case .waiting(let handlers) = state else { return [] }
            state = .fulfilled(response)
            return handlers
        }
        for handler in waiting { handler(response) }
    }

    /// Calls `handler` with the response: at once when it is given, else on the thread that
    /// gives it.
    public func whenFulfilled(_ handler: @escaping @Sendable (Response) -> Void) {
        let given = state.withLock { state -> Response? in
            switch state {
            case .fulfilled(let response):
                return response
            case .waiting(var handlers):
                handlers.append(handler)
                state = .waiting(handlers)
                return nil
            }
        }
        if let given { handler(given) }
    }

    /// Whether anything waits for the response (for tests: the server has taken the promise).
    var isAwaited: Bool {
        state.withLock { state in
            if case .waiting(let handlers) = state { !handlers.isEmpty } else { false }
        }
    }

    /// A promise of `transform` applied to this one's response (on the thread that gives it).
    public func map(_ transform: @escaping @Sendable (Response) -> Response) -> ResponsePromise {
        let mapped = ResponsePromise()
        whenFulfilled { mapped.fulfil(transform($0)) }
        return mapped
    }

    /// The response, once given.
    public var response: Response {
        get async {
            await withCheckedContinuation { continuation in whenFulfilled { continuation.resume(returning: $0) } }
        }
    }
}

extension Response {
    /// A response given later through `promise` (see ``ResponsePromise``).
    public static func promised(_ promise: ResponsePromise) -> Response {
        Response(status: .ok, body: .promised(promise))
    }

    /// This response, or the promised one once given.
    public var settled: Response {
        get async {
            guard case .promised(let promise) = body else { return self }
            return await promise.response.settled
        }
    }

    /// `transform` applied to this response, or to the promised one when it is given.
    public func mapSettled(_ transform: @escaping @Sendable (Response) -> Response) -> Response {
        guard case .promised(let promise) = body else { return transform(self) }
        return .promised(promise.map { $0.mapSettled(transform) })
    }
}
