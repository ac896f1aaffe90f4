import CMalloc
import Foundation
import Synchronization

/// Keeps the process's resident memory under one limit, whoever grows it: it watches RSS and,
/// as it nears the limit, sheds load in an order that costs people least first.
///
/// Each part of the server still bounds itself (a session's lists, a stream's backlog, the
/// caches) with budgets that are shares of the same limit; the governor is what holds when the
/// parts together, or what no count sees (allocator slack, copies in flight), pass it.
///
/// Once RSS reaches ``shedBytes`` (7/8 of the limit), the registered ``Step``s run in order,
/// each told how many bytes are still over ``relievedBytes`` (3/4), until RSS is under it:
/// 1. ``Step/caches``: caches are dropped (they refill as they are used);
/// 2. ``Step/idleSessions``: idle sessions are evicted to the store, the longest idle first
///    (saved already: a returning person gets theirs back);
/// 3. ``Step/slowStreams``: the streams that read slowest are cut (their clients reconnect
///    with `Last-Event-ID` and catch up).
///
/// After each step that freed a megabyte or more, glibc is asked to give it back
/// (`malloc_trim`); RSS is read again. When the steps cannot bring RSS under ``shedBytes``, the pressure is ``Pressure/full``:
/// ``admitsGrowth()`` is `false` (new sessions, writes that grow a list and new streams are
/// refused with `503 memory_full`) until RSS falls to ``relievedBytes``.
///
/// ```swift
/// let governor = MemoryGovernor(limit: 256 << 20)
/// governor.register(.caches) { _ in MemoryGovernor.Shed(count: 1, bytes: cache.removeAll()) }
/// governor.start()                       // samples RSS every 10 ms past half the limit (less often below)
/// guard governor.admitsGrowth() else { throw MemoryFull() }
/// ```
/// - Complexity: ``admitsGrowth()`` is one atomic load; a sample is one read of `/proc`.
public final class MemoryGovernor: Sendable {
    public enum Pressure: Int, Sendable, CustomStringConvertible {
        case normal, shedding, full
        public var description: String { ["normal", "shedding", "full"][rawValue] }
    }

    /// What can be shed, in the order it is.
    public enum Step: Int, Sendable, CaseIterable, CustomStringConvertible {
        case caches, idleSessions, slowStreams
        public var description: String { ["caches", "sessions", "streams"][rawValue] }
    }

    /// What one step shed: how many things (caches that held something, sessions, streams)
    /// and the bytes they held, roughly.
    public struct Shed: Sendable, Equatable {
        public var count: Int
        public var bytes: Int
        public init(count: Int, bytes: Int) {
            self.count = count
            self.bytes = bytes
        }
        public static let nothing = Shed(count: 0, bytes: 0)
    }

    /// Below this, what a step freed is not worth a `malloc_trim` (which walks the heap holding
    /// its locks, so other threads' allocations wait).
    public static let trimMinimumBytes = 1 << 20

    /// What the governor saw and did, for `/healthz/memory` and logs.
    public struct Report: Sendable {
        public var limitBytes: Int
        public var residentBytes: Int
        public var peakResidentBytes: Int
        public var pressure: Pressure
        /// How many times each step shed something (caches: drops; sessions: sessions evicted;
        /// streams: streams cut).
        public var shed: [Step: Int]
        /// Growth refused while full.
        public var refusals: Int
        /// The bytes each registered part counts now.
        public var parts: [(name: String, bytes: Int)]
    }

    /// 0: no limit (the governor does nothing).
    public let limit: Int
    /// RSS at which shedding starts.
    public var shedBytes: Int { limit - limit / 8 }
    /// RSS that shedding brings the process down to, and under which a full process takes
    /// growth again.
    public var relievedBytes: Int { limit - limit / 4 }

    private let resident: @Sendable () -> Int?
    private let trim: @Sendable () -> Void
    private let steps = Mutex<[(Step, @Sendable (_ excessBytes: Int) -> Shed)]>([])
    private let parts = Mutex<[(String, @Sendable () -> Int)]>([])
    private let shedCounts = Mutex<[Step: Int]>([:])
    private let pressureValue = Atomic<Int>(Pressure.normal.rawValue)
    private let lastResident = Atomic<Int>(0)
    private let peakResident = Atomic<Int>(0)
    private let checking = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let sampler = Mutex<Thread?>(nil)
    /// Called after each check that shed something or changed the pressure (for logs).
    private let observer = Mutex<(@Sendable (_ shed: [(Step, Int)], _ before: Int, _ after: Int, Pressure) -> Void)?>(nil)
    public let refusals = Atomic<Int>(0)
    /// The least time between two rounds of shedding: while the process stays full, caches
    /// are not emptied again every sample (each refill costs work), and what the last round
    /// freed has time to show in RSS.
    private let cooldown: Duration
    private let lastShed = Mutex<ContinuousClock.Instant?>(nil)

    /// - Parameters:
    ///   - resident: reads RSS (tests give their own).
    ///   - trim: gives freed memory back to the system (glibc's `malloc_trim`).
    ///   - cooldown: the least time between two rounds of shedding.
    public init(limit: Int, resident: @escaping @Sendable () -> Int? = ResidentMemory.bytes,
                trim: @escaping @Sendable () -> Void = { _ = cmalloc_trim() }, cooldown: Duration = .milliseconds(100)) {
        self.limit = max(0, limit)
        self.resident = resident
        self.trim = trim
        self.cooldown = cooldown
    }

    /// Adds a step (steps run in ``Step`` order, whatever the order they are registered in).
    /// `shed` frees what it can toward `excessBytes` and says what it shed (``Shed/nothing``
    /// when there was nothing to shed).
    public func register(_ step: Step, shed: @escaping @Sendable (_ excessBytes: Int) -> Shed) {
        steps.withLock {
            $0.append((step, shed))
            $0.sort { $0.0.rawValue < $1.0.rawValue }
        }
    }

    /// Adds a part whose counted bytes the report shows.
    public func registerPart(_ name: String, bytes: @escaping @Sendable () -> Int) {
        parts.withLock { $0.append((name, bytes)) }
    }

    /// Called after a check that shed something or changed the pressure.
    public func observe(_ handler: @escaping @Sendable (_ shed: [(Step, Int)], _ residentBefore: Int, _ residentAfter: Int, Pressure) -> Void) {
        observer.withLock { $0 = handler }
    }

    public var pressure: Pressure { Pressure(rawValue: pressureValue.load(ordering: .relaxed)) ?? .normal }

    /// Whether something may grow memory now (a new session, a write that adds, a new stream).
    /// Counts a refusal when not.
    ///
    /// Full (the last check could not shed enough): no. Else, once the last sample was past
    /// ``relievedBytes``, RSS is read again here (a few µs), and at or past the limit itself,
    /// no: a burst of growth between two samples (a thousand streams opened in 10 ms) cannot
    /// carry the process past the limit on a stale reading. Below that line, one atomic load.
    public func admitsGrowth() -> Bool {
        let pressure = pressureValue.load(ordering: .relaxed)
        if pressure != Pressure.full.rawValue {
            guard limit > 0, lastResident.load(ordering: .relaxed) >= relievedBytes,
                  let now = sample(), now >= limit else { return true }
        }
        refusals.add(1, ordering: .relaxed)
        return false
    }

    /// Reads RSS and sheds as the type's documentation says. One caller at a time does the work;
    /// a concurrent one returns the pressure as it is.
    @discardableResult
    public func check() -> Pressure {
        guard limit > 0, checking.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return pressure }
        defer { checking.store(false, ordering: .releasing) }
        guard let before = sample() else { return pressure }
        let old = pressure
        var now = before
        var shed: [(Step, Int)] = []
        let clock = ContinuousClock.now
        if now >= shedBytes, lastShed.withLock({ $0.map { clock - $0 >= cooldown } ?? true }) {
            lastShed.withLock { $0 = clock }
            pressureValue.store(max(old.rawValue, Pressure.shedding.rawValue), ordering: .relaxed)
            for (step, run) in steps.withLock({ $0 }) {
                let result = run(max(0, now - relievedBytes))
                guard result.count > 0 else { continue }
                shed.append((step, result.count))
                shedCounts.withLock { $0[step, default: 0] += result.count }
                if result.bytes >= Self.trimMinimumBytes { trim() }
                now = sample() ?? now
                if now < relievedBytes { break }
            }
        }
        let new: Pressure
        if now >= shedBytes { new = .full }
        else if now < relievedBytes { new = .normal }
        else { new = old == .full ? .full : (shed.isEmpty ? .normal : .shedding) }
        pressureValue.store(new.rawValue, ordering: .relaxed)
        if !shed.isEmpty || new != old, let observe = observer.withLock({ $0 }) { observe(shed, before, now, new) }
        return new
    }

    private func sample() -> Int? {
        guard let bytes = resident() else { return nil }
        lastResident.store(bytes, ordering: .relaxed)
        var peak = peakResident.load(ordering: .relaxed)
        while bytes > peak {
            let (exchanged, original) = peakResident.compareExchange(expected: peak, desired: bytes, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
        return bytes
    }

    /// Starts checking on a thread of its own (never on the cooperative pool, which a busy
    /// server may hold): every `interval` once RSS is past half the limit; every
    /// `relaxedInterval` past a quarter, or when RSS grew by a sixteenth of the limit since
    /// the last sample; every `idleInterval` below that. A wake-up costs about 0.15 ms of CPU
    /// here (a context switch and a read of `/proc`): 20 a second were 0.3% of a core on an
    /// idle server, one a second is noise. Once.
    public func start(interval: Duration = .milliseconds(10), relaxedInterval: Duration = .milliseconds(50),
                      idleInterval: Duration = .seconds(1)) {
        guard limit > 0 else { return }
        func seconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
        }
        let (pause, relaxed, idle) = (seconds(interval), seconds(relaxedInterval), seconds(idleInterval))
        let (half, quarter, jump) = (limit / 2, limit / 4, limit / 16)
        sampler.withLock { thread in
            guard thread == nil else { return }
            let started = Thread { [self] in
                var previous = 0
                while !stopped.load(ordering: .relaxed) {
                    check()
                    let now = lastResident.load(ordering: .relaxed)
                    Thread.sleep(forTimeInterval: now >= half ? pause : now >= quarter || now - previous >= jump ? relaxed : idle)
                    previous = now
                }
            }
            started.name = "diffable-web.memory"
            started.start()
            thread = started
        }
    }

    /// Stops the sampling thread (at its next pause).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    public var report: Report {
        Report(limitBytes: limit, residentBytes: lastResident.load(ordering: .relaxed),
               peakResidentBytes: peakResident.load(ordering: .relaxed), pressure: pressure,
               shed: shedCounts.withLock { $0 }, refusals: refusals.load(ordering: .relaxed),
               parts: parts.withLock { $0 }.map { ($0.0, $0.1()) })
    }
}
