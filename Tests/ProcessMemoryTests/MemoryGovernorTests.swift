import ProcessMemory
import Synchronization
import Testing

/// The governor against an RSS the test sets (no thread, no clock: each `check()` is one round).
@Suite struct MemoryGovernorTests {
    final class FakeProcess: Sendable {
        let resident = Atomic<Int>(0)
        let trims = Atomic<Int>(0)
        let log = Mutex<[String]>([])
        func note(_ line: String) { log.withLock { $0.append(line) } }
    }

    private func governor(_ process: FakeProcess, limit: Int = 1_000 << 20) -> MemoryGovernor {
        MemoryGovernor(limit: limit, resident: { process.resident.load(ordering: .relaxed) },
                       trim: { process.trims.add(1, ordering: .relaxed) }, cooldown: .zero)
    }

    /// Registers the three steps, each freeing `frees` bytes once it is asked (and logging it).
    private func register(_ governor: MemoryGovernor, _ process: FakeProcess, frees: [MemoryGovernor.Step: Int]) {
        // Registered out of order on purpose: they run in the order of `Step`.
        for step in [MemoryGovernor.Step.slowStreams, .caches, .idleSessions] {
            governor.register(step) { excess in
                let freed = frees[step] ?? 0
                process.note("\(step) asked for \(excess >> 20) MiB")
                guard freed > 0 else { return .nothing }
                process.resident.subtract(freed, ordering: .relaxed)
                return MemoryGovernor.Shed(count: 1, bytes: freed)
            }
        }
    }

    @Test func belowTheShedLineNothingIsShed() {
        let process = FakeProcess()
        let governor = governor(process)
        register(governor, process, frees: [.caches: 100 << 20])
        process.resident.store(874 << 20, ordering: .relaxed)  // just under 7/8 of 1,000 MiB
        #expect(governor.check() == .normal)
        #expect(process.log.withLock { $0 }.isEmpty)
        #expect(governor.admitsGrowth())
        #expect(governor.report.peakResidentBytes == 874 << 20)
    }

    @Test func stepsRunInOrderAndStopOnceRelieved() {
        let process = FakeProcess()
        let governor = governor(process)
        register(governor, process, frees: [.caches: 50 << 20, .idleSessions: 100 << 20, .slowStreams: 300 << 20])
        process.resident.store(900 << 20, ordering: .relaxed)
        // 900 → caches 850 → sessions 750 (under 3/4 = 750? no: 750 is not under 750) → streams 450.
        let pressure = governor.check()
        #expect(process.log.withLock { $0 } == ["caches asked for 150 MiB", "sessions asked for 100 MiB", "streams asked for 0 MiB"])
        #expect(pressure == .normal)
        #expect(process.trims.load(ordering: .relaxed) == 3)
        let report = governor.report
        #expect(report.shed == [.caches: 1, .idleSessions: 1, .slowStreams: 1])
        #expect(report.residentBytes == 450 << 20)
        #expect(report.peakResidentBytes == 900 << 20)
    }

    @Test func theCheapestStepThatSufficesIsTheLast() {
        let process = FakeProcess()
        let governor = governor(process)
        register(governor, process, frees: [.caches: 200 << 20, .idleSessions: 100 << 20])
        process.resident.store(900 << 20, ordering: .relaxed)
        #expect(governor.check() == .normal)
        #expect(process.log.withLock { $0 } == ["caches asked for 150 MiB"])
    }

    @Test func whenNothingFreesEnoughGrowthIsRefusedUntilRelieved() {
        let process = FakeProcess()
        let governor = governor(process)
        register(governor, process, frees: [.caches: 10 << 20])
        process.resident.store(990 << 20, ordering: .relaxed)
        #expect(governor.check() == .full)
        #expect(!governor.admitsGrowth())
        #expect(!governor.admitsGrowth())
        #expect(governor.report.refusals == 2)
        // Between the two lines a full process stays full (no flapping)...
        process.resident.store(800 << 20, ordering: .relaxed)
        #expect(governor.check() == .full)
        // ...and takes growth again once under 3/4.
        process.resident.store(740 << 20, ordering: .relaxed)
        #expect(governor.check() == .normal)
        #expect(governor.admitsGrowth())
    }

    @Test func pastTheReliefLineGrowthReadsRSSAfreshAndStopsAtTheLimit() {
        let process = FakeProcess()
        let governor = governor(process)
        process.resident.store(800 << 20, ordering: .relaxed)
        #expect(governor.check() == .normal)  // between 3/4 and 7/8: nothing to shed
        #expect(governor.admitsGrowth())
        // A burst since the last sample: the next admission sees it, before any check.
        process.resident.store(1_000 << 20, ordering: .relaxed)
        #expect(!governor.admitsGrowth())
        #expect(governor.report.refusals == 1)
        #expect(governor.report.residentBytes == 1_000 << 20)
        // Below the relief line the reading is not repeated (one atomic load).
        process.resident.store(100 << 20, ordering: .relaxed)
        #expect(governor.check() == .normal)
        process.resident.store(2_000 << 20, ordering: .relaxed)
        #expect(governor.admitsGrowth())
    }

    @Test func noLimitDoesNothing() {
        let process = FakeProcess()
        let governor = governor(process, limit: 0)
        register(governor, process, frees: [.caches: 10 << 20])
        process.resident.store(1 << 40, ordering: .relaxed)
        #expect(governor.check() == .normal)
        #expect(governor.admitsGrowth())
        #expect(process.log.withLock { $0 }.isEmpty)
    }

    @Test func theObserverHearsWhatWasShed() {
        let process = FakeProcess()
        let governor = governor(process)
        register(governor, process, frees: [.caches: 200 << 20])
        let heard = Mutex<[String]>([])
        governor.observe { shed, before, after, pressure in
            heard.withLock { $0.append("\(shed.map { "\($0.0) \($0.1)" }) \(before >> 20)→\(after >> 20) \(pressure)") }
        }
        process.resident.store(900 << 20, ordering: .relaxed)
        governor.check()
        governor.check()  // nothing changes: nothing heard
        #expect(heard.withLock { $0 } == ["[\"caches 1\"] 900→700 normal"])
    }

    @Test func roundsOfSheddingAreSpacedByTheCooldown() {
        let process = FakeProcess()
        let governor = MemoryGovernor(limit: 1_000 << 20, resident: { process.resident.load(ordering: .relaxed) },
                                      trim: {}, cooldown: .seconds(3_600))
        register(governor, process, frees: [.caches: 1 << 20])
        process.resident.store(990 << 20, ordering: .relaxed)
        #expect(governor.check() == .full)
        #expect(governor.check() == .full)
        // One round: the second check came within the cooldown (and still refuses growth).
        #expect(process.log.withLock { $0 }.count == 3)
        #expect(!governor.admitsGrowth())
    }

    @Test func onlyAStepThatFreedAMegabyteIsFollowedByATrim() {
        let process = FakeProcess()
        let governor = governor(process)
        register(governor, process, frees: [.caches: 512 << 10, .idleSessions: 300 << 20])
        process.resident.store(900 << 20, ordering: .relaxed)
        #expect(governor.check() == .normal)
        #expect(process.trims.load(ordering: .relaxed) == 1)
        #expect(governor.report.shed == [.caches: 1, .idleSessions: 1])
    }

    @Test func partsAreReported() {
        let governor = MemoryGovernor(limit: 1 << 30, resident: { 1 << 20 }, trim: {})
        governor.registerPart("sessions") { 42 }
        governor.registerPart("streams") { 7 }
        let parts = governor.report.parts
        #expect(parts.map(\.name) == ["sessions", "streams"])
        #expect(parts.map(\.bytes) == [42, 7])
    }
}
