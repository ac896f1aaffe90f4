import DiffableWeb
import Testing
@testable import DiffableWebPostgres

/// How a list's queued writes are merged into one statement per run (no database).
@Suite("Save runs: a list's queued writes merged into statements")
struct SaveRunTests {
    private static let key = ListKey(session: SessionID.random(), demo: "numbers")

    private func change(_ version: Int) -> StoredChange {
        StoredChange(event: StoredEvent(version: version, name: "changeset", data: "d\(version)"), changeset: "c\(version)")
    }

    /// The write of version `version`, made at the version before it.
    private func save(_ version: Int, epoch: String = "e1", base: ListPosition? = nil, checkpoint: Bool = false,
                      derived: Bool = false, stateChanged: Bool = true) -> PendingSave {
        let state = ["n": "\(version)"]
        let write = derived ? ListWrite.derived(version: version, epoch: epoch, state: state)
            : ListWrite(version: version, epoch: epoch, changes: [change(version)], state: state, stateChanged: stateChanged,
                        checkpoint: checkpoint ? [.init(id: "main", items: ["i\(version)"])] : nil)
        return PendingSave(write: write, base: base ?? ListPosition(version: version - 1, epoch: epoch), receipt: SaveReceipt())
    }

    @Test("a run of ordinary writes is one write: the first one's base, every change in order, the last one's version and state")
    func ordinaryRun() throws {
        let saves = [save(2, stateChanged: false), save(3), save(4, stateChanged: false)]
        let runs = SaveRun.runs(saves)
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.base == ListPosition(version: 1, epoch: "e1"))
        #expect(run.write.version == 4 && run.write.epoch == "e1" && run.write.state == ["n": "4"])
        #expect(run.write.changes == [change(2), change(3), change(4)])
        #expect(run.write.stateChanged, "a state changed by any write of the run is saved")
        #expect(run.write.checkpoint == nil && !run.write.derived)
        #expect(run.receipts.map(ObjectIdentifier.init) == saves.map { ObjectIdentifier($0.receipt) })
    }

    @Test("a run of derived writes is its last one")
    func derivedRun() {
        let runs = SaveRun.runs([save(2, derived: true), save(3, derived: true), save(4, derived: true)])
        #expect(runs.count == 1)
        #expect(runs.first?.base == ListPosition(version: 1, epoch: "e1"))
        #expect(runs.first?.write.version == 4 && runs.first?.write.derived == true && runs.first?.write.state == ["n": "4"])
        #expect(runs.first?.write.changes.isEmpty == true && runs.first?.receipts.count == 3)
    }

    @Test("a checkpoint ends a run (with the changes before it); the kind of write changing, a new epoch or a gap starts one")
    func runBoundaries() {
        let runs = SaveRun.runs([
            save(2), save(3, checkpoint: true),  // one run, ending with the checkpoint
            save(4), save(5),  // after a checkpoint
            save(6, derived: true), save(7, derived: true),  // derived
            save(8, checkpoint: true),  // ordinary again (with a checkpoint): a run alone
            save(9, epoch: "e2", base: ListPosition(version: 8, epoch: "e1"), checkpoint: true),  // a new epoch
            save(11, epoch: "e2", base: ListPosition(version: 10, epoch: "e2")),  // not made on the write before
        ])
        #expect(runs.map(\.write.version) == [3, 5, 7, 8, 9, 11])
        #expect(runs.map(\.base.version) == [1, 3, 5, 7, 8, 10])
        #expect(runs.map(\.receipts.count) == [2, 2, 2, 1, 1, 1])
        #expect(runs[0].write.checkpoint == [.init(id: "main", items: ["i3"])])
        #expect(runs[0].write.changes == [change(2), change(3)])
        #expect(runs[1].write.checkpoint == nil && runs[1].write.changes == [change(4), change(5)])
        #expect(runs[2].write.derived && runs[2].write.changes.isEmpty)
        #expect(runs[4].write.epoch == "e2" && runs[4].base.epoch == "e1")
    }

    @Test("a merged checkpoint prunes from its own version, and its statement saves the run's last version over its first base")
    func mergedStatement() throws {
        let runs = SaveRun.runs([save(9), save(10), save(11, checkpoint: true)])
        let run = try #require(runs.first)
        guard case .checkpoint(let statement) = PostgresSessionStore.saveStatement(run.write, of: Self.key, over: run.base,
                                                                                   processID: "p", keep: 4) else {
            Issue.record("a run ending with a checkpoint is saved as one")
            return
        }
        #expect(statement.prunedThrough == 7)
        // The notification names the last version (`<process> <session> <demo> <version>`).
        let head = Mirror(reflecting: statement).children.first { $0.label == "head" }?.value
        let payload = head.flatMap { Mirror(reflecting: $0).children.first { $0.label == "payload" }?.value as? String }
        #expect(payload == "p \(Self.key.session.value) numbers 11")
        #expect(statement.sections.contains("i11"))
        #expect(runs.count == 1 && run.base.version == 8)
    }
}
