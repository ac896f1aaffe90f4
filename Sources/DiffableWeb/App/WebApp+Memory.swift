import Foundation
import Logging
import MicroHTTP
import ProcessMemory
import Synchronization

// The process's memory: what `/healthz/memory` reports, and the governor's start with the
// server's streams as its last step.

extension WebApp {
    /// `GET /healthz/memory`: the limit, RSS now and at its peak, the pressure, what the
    /// governor shed (how many times caches were dropped, sessions evicted, streams cut) and the
    /// growth it refused, the bytes each part counts, and the two budgets that are shares of
    /// the limit with what they did themselves (sessions evicted and writes refused by the
    /// sessions' budget, streams cut by the streams' budget). Answered on the server's thread,
    /// like `/healthz`.
    /// ```json
    /// {"limitBytes":268435456,"residentBytes":61440000,"peakResidentBytes":230686720,"state":"normal",
    ///  "shed":{"caches":2,"sessions":0,"streams":212},"refusals":0,
    ///  "parts":{"sessions":1048576,"caches":524288,"streams":0},
    ///  "budgets":{"sessions":{"limitBytes":134217728,"usedBytes":1048576,"evicted":0,"refused":0},
    ///             "streams":{"limitBytes":67108864,"usedBytes":0,"cut":207}}}
    /// ```
    func memoryResponse() -> Response {
        let report = memory.report
        var writer = JSONWriter(capacity: 256)
        writer.raw("{\"limitBytes\":"); writer.int(report.limitBytes)
        writer.raw(",\"residentBytes\":"); writer.int(report.residentBytes)
        writer.raw(",\"peakResidentBytes\":"); writer.int(report.peakResidentBytes)
        writer.raw(",\"state\":"); writer.string(report.pressure.description)
        writer.raw(",\"shed\":{")
        for (index, step) in MemoryGovernor.Step.allCases.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(step.description); writer.raw(":"); writer.int(report.shed[step] ?? 0)
        }
        // Every refusal for memory: the governor's, the sessions' budget's, new streams'.
        let streamRefusals = streamBudget.withLock { $0 }?.refusals.load(ordering: .relaxed) ?? 0
        writer.raw("},\"refusals\":"); writer.int(report.refusals + (sessions.memoryBudget?.refusals.load(ordering: .relaxed) ?? 0) + streamRefusals)
        writer.raw(",\"parts\":{")
        for (index, part) in report.parts.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(part.name); writer.raw(":"); writer.int(part.bytes)
        }
        writer.raw("},\"budgets\":{\"sessions\":{\"limitBytes\":"); writer.int(sessions.memoryBudget?.limit ?? 0)
        writer.raw(",\"usedBytes\":"); writer.int(sessions.memoryBudget?.usedBytes ?? 0)
        writer.raw(",\"evicted\":"); writer.int(sessions.memoryEvictions.load(ordering: .relaxed) - (report.shed[.idleSessions] ?? 0))
        writer.raw(",\"refused\":"); writer.int(sessions.memoryBudget?.refusals.load(ordering: .relaxed) ?? 0)
        writer.raw("}")
        if let streams = streamBudget.withLock({ $0 }) {
            writer.raw(",\"streams\":{\"limitBytes\":"); writer.int(streams.limit)
            writer.raw(",\"usedBytes\":"); writer.int(streams.unsentBytes)
            writer.raw(",\"deflateBytes\":"); writer.int(streams.deflateStateBytes)
            writer.raw(",\"admitBytes\":"); writer.int(configuration.streamMemoryBytes)
            writer.raw(",\"cut\":"); writer.int(streams.cuts.load(ordering: .relaxed) - (report.shed[.slowStreams] ?? 0))
            writer.raw(",\"refused\":"); writer.int(streams.refusals.load(ordering: .relaxed))
            writer.raw("}")
        }
        writer.raw("}}")
        return Response.json(Data(writer.bytes), headers: ["Cache-Control": "no-store"])
    }

    /// Why a new event stream would not be admitted now (`503 memory_full`), or `nil`: the
    /// process is full (``MemoryGovernor/admitsGrowth()``), or the streams already hold their
    /// whole budget (`--stream-buffer-total`). Streams are refused rather than admitted and cut:
    /// a stream's memory (its deflate state, its first events) comes after it is admitted, so
    /// a burst admitted on a reading taken before it would pass the bound.
    func streamAdmissionError() -> MemoryBudgetError? {
        if let streams = streamBudget.withLock({ $0 }) {
            let cap = configuration.streamMemoryBytes
            let held = streams.heldBytes + streamReservations.bytes.load(ordering: .relaxed)
            if cap > 0 && held >= cap || streams.limit > 0 && streams.unsentBytes >= streams.limit {
                streams.refusals.add(1, ordering: .relaxed)
                return .streams(limit: cap > 0 ? cap : streams.limit)
            }
        }
        return memory.admitsGrowth() ? nil : .process(limit: memory.limit)
    }

    /// Admits a new stream (or throws `503 memory_full`, see ``streamAdmissionError()``) and
    /// holds what it will cost against the streams' part until it opens (``StreamReservation``):
    /// a crowd's streams are admitted faster than they open, and none of them counts before.
    func reserveStream(gzip: Bool) throws(MemoryBudgetError) -> StreamReservation {
        if let refusal = streamAdmissionError() { throw refusal }
        return StreamReservation(bytes: gzip ? StreamReservation.gzipBytes : StreamReservation.plainBytes, in: streamReservations)
    }

    /// Gives the governor the server's streams (cut the furthest behind, its third step) and
    /// starts it; what it sheds is logged, once per round that shed something.
    func startMemoryGovernor(streams budget: EventStreamBudget, bodies: @escaping @Sendable () -> Int) {
        streamBudget.withLock { $0 = budget }
        metricsState.bodies.withLock { $0 = bodies }
        guard memory.limit > 0 else { return }
        memory.registerPart("bodies", bytes: bodies)
        memory.register(.slowStreams) { excess in
            let (cut, freed) = budget.cutSlowest(freeing: excess)
            return MemoryGovernor.Shed(count: cut, bytes: freed)
        }
        memory.registerPart("streams") { budget.heldBytes }
        // One line when the pressure changes; while it stays, what was shed is added up and
        // said at most every 5 s (a full process sheds its refilled caches 10 times a second).
        let logger = self.logger
        struct Said {
            var shed: [MemoryGovernor.Step: Int] = [:]
            var at = ContinuousClock.now - .seconds(5)
            var pressure = MemoryGovernor.Pressure.normal
        }
        let said = Mutex(Said())
        memory.observe { shed, before, after, pressure in
            WebApp.recordShed(shed)
            let line = said.withLock { said -> String? in
                for (step, count) in shed { said.shed[step, default: 0] += count }
                let now = ContinuousClock.now
                guard pressure != said.pressure || now - said.at >= .seconds(5) else { return nil }
                let steps = MemoryGovernor.Step.allCases.compactMap { step in said.shed[step].map { "\(step) \($0)" } }.joined(separator: ", ")
                said = Said(at: now, pressure: pressure)
                return "memory: RSS \(MemorySize.format(before)) → \(MemorySize.format(after)), \(pressure)\(steps.isEmpty ? "" : "; shed \(steps)")"
            }
            if let line { logger.warning("\(line)") }
        }
        memory.start()
        logger.info("memory limit \(MemorySize.format(memory.limit)); shedding from \(MemorySize.format(memory.shedBytes))")
    }
}

/// What a stream admitted and not yet open will cost, counted until it opens (``release()``),
/// or until its response is dropped unopened (the client left first): then its `deinit` does.
final class StreamReservation: Sendable {
    /// A gzip stream's deflate state as it is counted from its start (`GzipEncoder.stateBytes`).
    static let gzipBytes = 48 * 1024
    /// A plain stream's first chunk buffer.
    static let plainBytes = 4 * 1024

    /// What all reservations not yet released add up to.
    final class Total: Sendable {
        let bytes = Atomic<Int>(0)
    }

    private let bytes: Int
    private let total: Total
    private let released = Atomic<Bool>(false)

    init(bytes: Int, in total: Total) {
        self.bytes = bytes
        self.total = total
        total.bytes.add(bytes, ordering: .relaxed)
    }

    func release() {
        guard !released.exchange(true, ordering: .relaxed) else { return }
        total.bytes.subtract(bytes, ordering: .relaxed)
    }

    deinit { release() }
}
