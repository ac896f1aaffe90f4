import Foundation
import Testing
@testable import DiffableWeb

/// Issue 21: a list that is a function of its state (the Mountains list is its query) is saved
/// as that state: the store keeps its version, epoch and state, and forgets its identifiers and
/// changes. A later ordinary write (with a checkpoint) makes it ordinary again.
@Suite("SQLite derived lists: saved as their state, read back derived; an ordinary write with a checkpoint makes them ordinary")
struct SQLiteDerivedListTests {
    @Test("a derived write keeps version, epoch and state only: read back derived, no sections, no events; the list's change rows are deleted")
    func derivedRoundTrip() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        try await store.save(key, ListWrite(version: 2, epoch: "00000000e001", changes: [StoreFixture.change(2, from: ["n1"], to: ["n1", "n2"])],
                                            state: ["query": ""], checkpoint: nil))
        #expect(try store.rows("changes", of: key) == 1)

        try await store.save(key, .derived(version: 3, epoch: "00000000e002", state: ["query": "k2"]))
        let expected = StoredList(demo: "numbers", version: 3, epoch: "00000000e002", sections: [], state: ["query": "k2"], events: [], derived: true)
        #expect(try await store.list(key) == expected)
        #expect(try store.rows("changes", of: key) == 0, "its changes are forgotten")
        // Read back by another store on the file (a restart).
        #expect(try await SQLiteSessionStore(directory: directory.path).list(key) == expected)
    }

    @Test("an ordinary write with a checkpoint after derived ones makes the list ordinary: its identifiers and events are kept again")
    func derivedThenOrdinary() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, key) = try await StoreFixture.store(directory)
        try await store.save(key, .derived(version: 2, epoch: "00000000e001", state: ["query": "k"]))
        try await store.save(key, .derived(version: 3, epoch: "00000000e001", state: ["query": "k2"]))
        let put = StoreFixture.change(4, from: [], to: ["a", "b"])
        try await store.save(key, ListWrite(version: 4, epoch: "00000000e001", changes: [put], state: ["query": "k2"],
                                            checkpoint: [.init(id: "main", items: ["a", "b"])]))
        let list = try #require(try await store.list(key))
        #expect(!list.derived && list.version == 4 && list.sections == [.init(id: "main", items: ["a", "b"])])
        #expect(list.events.map(\.version) == [4])
        try await store.save(key, ListWrite(version: 5, epoch: "00000000e001", changes: [StoreFixture.change(5, from: ["a", "b"], to: ["b", "a"])],
                                            state: ["query": "k2"], checkpoint: nil))
        let next = try #require(try await store.list(key))
        #expect(!next.derived && next.version == 5 && next.sections.first?.items == ["b", "a"] && next.events.map(\.version) == [4, 5])
    }

    @Test("createList of a derived list saves its state only, and reads it back derived")
    func createDerived() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteSessionStore(directory: directory.path)
        let id = SessionID.random()
        try await store.saveSession(id: id, shareID: SessionID.random())
        let key = ListKey(session: id, demo: "mountains")
        let made = StoredList(demo: "mountains", version: 1, epoch: "00000000e001", sections: [.init(id: "main", items: ["m1", "m2"])],
                              state: ["query": "k"], events: [StoredEvent(version: 1, name: "snapshot", data: "{}")], derived: true)
        #expect(try await store.createList(key, made) == nil)
        let expected = StoredList(demo: "mountains", version: 1, epoch: "00000000e001", sections: [], state: ["query": "k"], events: [], derived: true)
        #expect(try await store.list(key) == expected)
        let database = try SQLiteDatabase(path: store.path)
        #expect(try database.query("SELECT base_version, base_sections, derived FROM lists").first == [.integer(1), .text("[]"), .integer(1)])
    }
}
