import Foundation
import Testing
@testable import DiffableWeb

/// Issue 21: the embedded store's group commit runs on its own thread. Writes that arrive while
/// it is busy wait and commit together; a derived write (its list is its state) replaces the
/// same list's derived write still waiting, so a person typing fast costs one save per batch.
@Suite("SQLite group commit: waiting writes commit together on the store's thread; a derived write replaces a waiting one")
struct SQLiteGroupCommitTests {
    @Test("two derived writes of one list enqueued while the store's thread is busy: one save, both receipts succeed, the later one is kept")
    func derivedWritesCoalesce() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        let saves = store.writesSaved.load(ordering: .relaxed)
        let receipts = try await store.whileThreadBusy {
            [try await store.handOver(key, .derived(version: 2, epoch: "00000000e001", state: ["query": "k"])),
             try await store.handOver(key, .derived(version: 3, epoch: "00000000e001", state: ["query": "k2"]))]
        }
        for receipt in receipts { try await receipt.wait() }
        #expect(store.writesSaved.load(ordering: .relaxed) - saves == 1, "the second replaced the first")
        let list = try #require(try await store.list(key))
        #expect(list.version == 3 && list.state == ["query": "k2"] && list.derived)
    }

    @Test("the store never takes a write back, so it never asks the list to mark an undo point (the list then keeps no copy)")
    func neverAsksForAnUndoPoint() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        var steps: [UndoStep] = []
        let write = ListWrite(version: 2, epoch: "00000000e001", changes: [StoreFixture.change(2, from: ["n1"], to: ["n1", "n2"])],
                              state: [:], stateChanged: false, checkpoint: nil)
        let (_, receipt) = try await store.write(key, from: ListPosition(version: 1, epoch: "00000000e001"), { _ in ((), write) },
                                                 undo: { steps.append($0) })
        try await receipt.wait()
        #expect(steps.isEmpty)
        #expect(try await store.list(key)?.version == 2, "and the write was saved")
    }

    @Test("a derived write never replaces a waiting ordinary write of its list, nor another list's; all of them are saved, in order")
    func ordinaryWritesAreKept() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        let other = ListKey(session: key.session, demo: "mountains")
        _ = try await store.createList(other, StoreFixture.list(["m1"]))
        let saves = store.writesSaved.load(ordering: .relaxed), commits = store.commits.load(ordering: .relaxed)
        let receipts = try await store.whileThreadBusy {
            [try await store.handOver(other, .derived(version: 2, epoch: "00000000e001", state: ["query": "m"])),
             try await store.handOver(key, .derived(version: 2, epoch: "00000000e001", state: ["query": "k"])),
             try await store.handOver(key, ListWrite(version: 3, epoch: "00000000e001", changes: [StoreFixture.change(3, from: [], to: ["x"])],
                                                     state: [:], checkpoint: [.init(id: "main", items: ["x"])])),
             try await store.handOver(key, .derived(version: 4, epoch: "00000000e001", state: ["query": "k4"]))]
        }
        for receipt in receipts { try await receipt.wait() }
        #expect(store.writesSaved.load(ordering: .relaxed) - saves == 4)
        #expect(store.commits.load(ordering: .relaxed) - commits == 1, "one transaction for everything that waited")
        #expect(try await store.list(key) == StoredList(demo: "numbers", version: 4, epoch: "00000000e001", sections: [], state: ["query": "k4"], derived: true))
        #expect(try await store.list(other)?.state == ["query": "m"])
        // In order within the transaction: the derived write after it deleted version 3's row.
        #expect(try store.rows("changes", of: key) == 0)
    }

    @Test("a write that fails fails its list's later waiting writes, not other lists'; reading the list clears the mark (as before)")
    func failureStaysWithItsList() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        let other = ListKey(session: key.session, demo: "mountains")
        _ = try await store.createList(other, StoreFixture.list(["m1"]))
        let second = ListWrite(version: 2, epoch: "00000000e001", changes: [StoreFixture.change(2, from: ["n1"], to: ["n1", "n2"])], state: [:], checkpoint: nil)
        try await store.save(key, second)
        let receipts = try await store.whileThreadBusy {
            [try await store.handOver(key, second),  // version 2 again: refused (a version is written once)
             try await store.handOver(other, .derived(version: 2, epoch: "00000000e001", state: ["query": "m"])),
             try await store.handOver(key, .derived(version: 3, epoch: "00000000e001", state: ["query": "k"]))]
        }
        await #expect(throws: (any Error).self) { try await receipts[0].wait() }
        try await receipts[1].wait()
        await #expect(throws: (any Error).self, "a later write of the list that failed") { try await receipts[2].wait() }
        await #expect(throws: (any Error).self, "still marked") {
            try await store.save(key, .derived(version: 3, epoch: "00000000e001", state: ["query": "k"]))
        }
        #expect(try await store.list(key)?.version == 2, "made again from what is saved")
        try await store.save(key, .derived(version: 3, epoch: "00000000e001", state: ["query": "k"]))
        #expect(try await store.list(key)?.state == ["query": "k"])
        #expect(try await store.list(other)?.state == ["query": "m"])
    }
}
