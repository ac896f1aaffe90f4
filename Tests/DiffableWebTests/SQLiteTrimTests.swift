import DiffableDataSources
import Foundation
import Testing
@testable import DiffableWeb

/// Session 12: a checkpoint's older changes are deleted a chunk per commit after it, not all in
/// its own commit (at 10,000 items that one commit held the store's thread 88–147 ms).
@Suite("SQLite: changes before a checkpoint are trimmed a chunk per commit")
struct SQLiteTrimTests {
    /// Writes `count` changes appending one item each, after version `from`, one commit each.
    static func append(_ store: SQLiteSessionStore, _ key: ListKey, from: Int, count: Int, items: inout [String]) async throws {
        for version in (from + 1)...(from + count) {
            let old = items
            items.append("i\(version)")
            try await store.save(key, ListWrite(version: version, epoch: "00000000e001",
                                                changes: [StoreFixture.change(version, from: old, to: items)], state: [:], checkpoint: nil))
        }
    }

    static func checkpoint(_ store: SQLiteSessionStore, _ key: ListKey, at version: Int, items: inout [String]) async throws {
        let old = items
        items.append("i\(version)")
        try await store.save(key, ListWrite(version: version, epoch: "00000000e001", changes: [StoreFixture.change(version, from: old, to: items)],
                                            state: [:], checkpoint: [StoredList.StoredSection(id: "main", items: items)]))
    }

    @Test("the checkpoint's commit deletes at most a chunk; the following commits delete the rest; the list reads back whole at each step")
    func trimmedInChunks() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory, items: [])
        var items: [String] = []
        let older = SQLiteSessionStore.trimChunk * 3
        try await Self.append(store, key, from: 1, count: older, items: &items)  // versions 2...older+1
        try await Self.checkpoint(store, key, at: older + 2, items: &items)
        let capacity = store.eventLogCapacity
        // Rows: every change (older + 1), less at most one chunk deleted so far.
        let afterCheckpoint = try store.rows("changes", of: key)
        #expect(afterCheckpoint >= older + 1 - SQLiteSessionStore.trimChunk, "no more than a chunk deleted with the checkpoint")
        #expect(store.listsWaitingForTrim == 1)

        var version = older + 2
        var previous = afterCheckpoint
        while store.listsWaitingForTrim > 0 && version < older + 20 {
            try await Self.append(store, key, from: version, count: 1, items: &items)
            version += 1
            let rows = try store.rows("changes", of: key)
            #expect(rows >= previous + 1 - SQLiteSessionStore.trimChunk, "a commit deletes at most a chunk")
            previous = rows
            let read = try #require(try await store.list(key))
            #expect(read.version == version && read.sections.first?.items == items, "read back whole while trimming")
            #expect(read.events.count <= capacity + (version - (older + 2)), "old rows waiting are not read")
        }
        #expect(store.listsWaitingForTrim == 0, "trimmed within a few commits")
        // What is kept: the replay log before the checkpoint and every change after it.
        #expect(try store.rows("changes", of: key) == capacity + (version - (older + 2)))
    }

    @Test("a session deleted and made again under its id keeps its new changes (its old mark is forgotten)")
    func deletedSessionForgetsItsMark() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory, items: [])
        var items: [String] = []
        try await Self.append(store, key, from: 1, count: SQLiteSessionStore.trimChunk * 2, items: &items)
        try await Self.checkpoint(store, key, at: SQLiteSessionStore.trimChunk * 2 + 2, items: &items)
        #expect(store.listsWaitingForTrim == 1)

        try await store.deleteSession(id: key.session)
        #expect(store.listsWaitingForTrim == 0)
        try await store.saveSession(id: key.session, shareID: SessionID.random())
        _ = try await store.createList(key, StoreFixture.list([]))
        var fresh: [String] = []
        try await Self.append(store, key, from: 1, count: 10, items: &fresh)
        #expect(try store.rows("changes", of: key) == 10, "none of the new changes deleted")
        #expect(try await store.list(key)?.sections.first?.items == fresh)
    }
}
