// What a stream holds in memory, and what it counts against the server's `EventStreamBudget`:
// its unsent bytes' buffer, the frame on its way to a socket of its own, and a gzip stream's
// deflate state.
extension EventStream {
    /// Whether a gzip stream holds its deflate state now (freed while idle; see `heartbeat()`).
    var hasDeflateState: Bool { state.withLock { $0.encoder?.isActive ?? false } }

    /// Bytes queued but not yet handed to the connection (0 for an idle stream).
    public var unsentByteCount: Int { state.withLock { $0.pending.count } }

    /// The memory the stream holds: its unsent bytes' buffer, the frame on its way to the
    /// socket, and a gzip stream's deflate state while active (0 for an idle plain stream).
    public var heldByteCount: Int { state.withLock { $0.charged + $0.chargedState } }

    /// Bytes queued that the client has not taken yet (the buffer and what is left of the frame
    /// on its way): how far behind the client is. The budget cuts the streams furthest behind.
    var backlogByteCount: Int {
        state.withLock { s in s.pending.count + (s.own.map { $0.frame.count - $0.sent } ?? 0) }
    }

    /// Brings the budget in line with what the stream now holds: its buffer's allocation and
    /// the frame on its way to a socket of its own (unsent), and its deflate state (what RSS
    /// pays for it). Under the lock.
    func recharge(_ s: inout State) {
        let held = s.pending.heldBytes + (s.own?.frame.capacity ?? 0)
        if held != s.charged {
            budget?.add(held - s.charged)
            s.charged = held
        }
        let state = s.encoder?.stateBytes ?? 0
        if state != s.chargedState {
            budget?.addState(state - s.chargedState)
            s.chargedState = state
        }
    }

    /// Forgets the unsent bytes (and returns them to the budget). Under the lock.
    func dropPending(_ s: inout State) {
        s.pending.removeAll()
        s.unframed = 0
        recharge(&s)
    }
}
