import DiffableDataSources
import Foundation
@testable import DiffableWeb

/// Helpers for the embedded store's suites: lists of one section, changes between them, and a
/// store thread held busy.
enum StoreFixture {
    /// A snapshot of one section `main` holding `items`.
    static func snapshot(_ items: [String]) -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(["main"])
        try? snapshot.appendItems(items, toSection: "main")
        return snapshot
    }

    /// The stored change that turns `old` into `new`, as version `version`.
    static func change(_ version: Int, from old: [String], to new: [String]) -> StoredChange {
        StoredChange(event: StoredEvent(version: version, name: "changeset", data: "{\"v\":\(version)}"),
                     changeset: StoredChangeset.encode(Changeset(from: snapshot(old), to: snapshot(new))))
    }

    /// A new list of one section `main` holding `items`, at `version`.
    static func list(_ items: [String], version: Int = 1, state: [String: String] = [:]) -> StoredList {
        StoredList(demo: "numbers", version: version, epoch: "00000000e001", sections: [.init(id: "main", items: items)], state: state)
    }

    /// A store under a new directory, with one session and its `numbers` list holding `items`.
    static func store(_ directory: URL, items: [String] = ["n1"], maximumHold: DispatchTimeInterval = .milliseconds(2))
        async throws -> (SQLiteSessionStore, ListKey) {
        let store = try SQLiteSessionStore(directory: directory.path, maximumHold: maximumHold)
        let id = SessionID.random()
        try await store.saveSession(id: id, shareID: SessionID.random())
        let key = ListKey(session: id, demo: "numbers")
        _ = try await store.createList(key, list(items))
        return (store, key)
    }
}

extension SQLiteSessionStore {
    /// Hands `write` to the group commit and returns its receipt (not waited for).
    func handOver(_ key: ListKey, _ write: ListWrite) async throws -> SaveReceipt {
        try await self.write(key, from: ListPosition(version: write.version - 1, epoch: write.epoch), { _ in ((), write) }, undo: { _ in }).saved
    }

    /// Saves `write` and waits until it is committed.
    func save(_ key: ListKey, _ write: ListWrite) async throws {
        try await handOver(key, write).wait()
    }

    /// The number of rows of `table` for `key`'s list, read through a second connection.
    func rows(_ table: String, of key: ListKey) throws -> Int {
        let database = try SQLiteDatabase(path: path)
        return try database.query("SELECT count(*) FROM \(table) WHERE session_id = ? AND demo = ?",
                                  [.text(key.session.value), .text(key.demo)]).first?.first?.integer ?? -1
    }

    /// Runs `body` while the store's thread is held on a job of the test's own, so that what
    /// `body` enqueues waits (and is committed once `body` has returned).
    func whileThreadBusy<T>(_ body: () async throws -> T) async throws -> T {
        let release = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            database.submit { _ in
                started.resume()
                release.wait()
            }
        }
        defer { release.signal() }
        return try await body()
    }
}
