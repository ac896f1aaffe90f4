import HTTPTestSupport
import Synchronization

/// A one-shot gate a handler can await until a test opens it: the handler is "slow" for exactly
/// as long as the test needs, with no clock.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// Tasks that came to the gate so far (signalled once each waits, or passed an open gate).
    let arrivals = CountSignal()

    var isWaiting: Bool { state.withLock { !$0.waiters.isEmpty } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            arrivals.signal()
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Opens the gate after ``Patience/hang`` unless the returned task is cancelled first (a
    /// cancelled guard opens it at once): a test that waits for something the gate holds back
    /// by mistake ends, and fails, instead of hanging.
    func openingPastHang() -> Task<Void, Never> {
        Task { [self] in
            try? await Task.sleep(for: Patience.hang)  // the hang guard only
            open()
        }
    }
}
