import Foundation
import Testing
@testable import DiffableWeb

/// Session 12: the WAL is checkpointed on a thread of its own, not in the store thread's
/// commits (5–7 ms each, several times a second under load, with every waiting write behind it).
@Suite("SQLite: WAL checkpoints run off the store's thread, and the WAL stays bounded")
struct SQLiteWALCheckpointTests {
    @Test("a few thousand pages of writes: checkpoints run on the checkpointer, none in a commit; the WAL starts over; every change reads back")
    func offTheStoreThread() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory, items: [])
        var items: [String] = []
        let filler = String(repeating: "x", count: 6_000)  // two pages a change
        let count = 2_500
        for version in 2...count {
            let old = items
            items.append("i\(version)")
            var change = StoreFixture.change(version, from: old, to: items)
            change.event.data = filler
            try await store.save(key, ListWrite(version: version, epoch: "00000000e001", changes: [change], state: [:],
                                                checkpoint: version % 500 == 0 ? [StoredList.StoredSection(id: "main", items: items)] : nil))
        }
        #expect(store.checkpointer.checkpoints.load(ordering: .relaxed) >= 1, "the checkpointer ran")
        #expect(store.checkpointer.inlineCheckpoints.load(ordering: .relaxed) == 0, "no whole checkpoint in a commit")
        #expect(store.checkpointer.catchUps.load(ordering: .relaxed) >= 1, "the writer copied the last few frames")
        #expect(store.checkpointer.failures.load(ordering: .relaxed) == 0)
        // ~5,000 pages were written (20.5 MB); with no checkpoint the WAL would hold them all.
        // It started over at least once: a WAL that starts over is truncated to the store's
        // journal_size_limit (16 MiB) when it is past it. How far it grew before depends on
        // how much CPU the checkpointer got beside the writer (up to 12 MB on a quiet machine,
        // 16 MiB under load): a busy machine makes it bigger, never unbounded.
        let wal = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int ?? 0
        #expect(wal <= 16 * 1024 * 1024, "the WAL started over (\(wal) bytes)")
        let read = try #require(try await store.list(key))
        #expect(read.version == count && read.sections.first?.items == items)
    }
}
