import Synchronization

/// Sends each open event stream a heartbeat once per `interval`, spread over the interval: the
/// streams are kept in `slotCount` slots, and a tick (every `interval / slotCount`) sends to one
/// slot. A stream joins the slot that was just sent to, so it gets its first heartbeat one
/// interval after it opened (it has just sent its first bytes), then one every interval: the
/// gap between two heartbeats is the interval, whatever other streams do.
///
/// ```swift
/// let heartbeats = HeartbeatSchedule(interval: .seconds(30))
/// Task { await heartbeats.run() }
/// return .eventStream { stream in heartbeats.add(stream) }
/// ```
///
/// Spread, not in one burst: at 10,000 idle streams and 30 slots a tick sends ~333 heartbeats (one
/// `send` each on an idle stream: ``EventStream/heartbeat()``), instead of 10,000 system calls and
/// their loopback or NIC work at one instant every interval. A closed stream leaves its slot
/// (its close handler), so the schedule holds only open streams.
///
/// - Complexity: ``add(_:)`` and a stream's removal O(1); ``tick()`` O(streams in one slot).
public final class HeartbeatSchedule: Sendable {
    /// How long between two heartbeats of one stream.
    public let interval: Duration
    /// How many parts the interval is cut in (one tick each).
    public let slotCount: Int

    private struct State {
        var slots: [[UInt64: EventStream]]
        /// The slot the next tick sends to.
        var next = 0
    }
    private let state: Mutex<State>

    /// `slots`: by default one per second of the interval (at least 1, at most 60).
    public init(interval: Duration, slots: Int? = nil) {
        self.interval = interval
        let seconds = Int(interval / .seconds(1))
        slotCount = max(1, slots ?? min(60, seconds))
        state = Mutex(State(slots: Array(repeating: [:], count: slotCount)))
    }

    /// The time between two ticks.
    public var tickInterval: Duration { interval / slotCount }

    /// Heartbeats `stream` from one interval from now on, until it closes.
    public func add(_ stream: EventStream) {
        let id = stream.id
        let slot = state.withLock { s -> Int in
            let slot = (s.next + slotCount - 1) % slotCount
            s.slots[slot][id] = stream
            return slot
        }
        // Runs at once for a stream that has already ended.
        stream.onClose { [weak self] _ in
            self?.state.withLock { _ = $0.slots[slot].removeValue(forKey: id) }
        }
    }

    /// Sends a heartbeat to every stream of the next slot, and moves on to the one after.
    /// - Returns: the streams it sent to.
    @discardableResult
    public func tick() -> [EventStream] {
        let due = state.withLock { s -> [EventStream] in
            let slot = s.next
            s.next = (s.next + 1) % slotCount
            return Array(s.slots[slot].values)
        }
        // Outside the lock: a heartbeat that fails ends its stream, whose close handler takes it.
        for stream in due { stream.heartbeat() }
        return due
    }

    /// How many streams are scheduled.
    public var count: Int { state.withLock { $0.slots.reduce(0) { $0 + $1.count } } }

    /// Ticks every ``tickInterval`` until the task is cancelled. The ticks keep to their
    /// deadlines (the time a tick takes is not added to the interval); after a stall longer
    /// than an interval the schedule starts again from now rather than catching up in a burst.
    public func run() async {
        let clock = ContinuousClock()
        var deadline = clock.now
        while !Task.isCancelled {
            deadline += tickInterval
            if deadline < clock.now - interval { deadline = clock.now }
            try? await Task.sleep(until: deadline, clock: clock)
            if Task.isCancelled { break }
            tick()
        }
    }
}
