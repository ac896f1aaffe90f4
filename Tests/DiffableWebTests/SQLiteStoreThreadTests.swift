import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Issue 21: the embedded store made blocking SQLite calls on the callers' threads (Swift's
/// cooperative pool, two threads on two cores), and a group commit's leader committed on its
/// own. Every statement now runs on the store's own thread; callers await it.
@Suite("The SQLite store's statements all run on its own thread, never on a caller's")
struct SQLiteStoreThreadTests {
    @Test("every store method, called from 8 tasks at once, runs its statements on the store's thread")
    func everyStatementOnTheStoresThread() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteSessionStore(directory: directory.path)
        let statistics = store.database.statistics
        let (run, off) = (statistics.statementsRun, statistics.statementsOffOwner)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let id = SessionID.random(), share = SessionID.random()
                    try await store.saveSession(id: id, shareID: share)
                    #expect(try await store.session(id: id) != nil)
                    #expect(try await store.session(shareID: share) != nil)
                    try await store.touchSessions([id])
                    let key = ListKey(session: id, demo: "numbers")
                    #expect(try await store.createList(key, StoreFixture.list(["n1"])) == nil)
                    #expect(try await store.createList(key, StoreFixture.list(["n9"])) != nil, "the first one saved wins")
                    try await store.save(key, ListWrite(version: 2, epoch: "00000000e001", changes: [StoreFixture.change(2, from: ["n1"], to: ["n1", "n2"])],
                                                        state: [:], checkpoint: nil))
                    try await store.save(key, .derived(version: 3, epoch: "00000000e001", state: ["query": "k\(index)"]))
                    #expect(try await store.list(key)?.state == ["query": "k\(index)"])
                    #expect(try await store.catchUp(key, from: ListPosition(version: 3, epoch: "00000000e001")) == nil)
                    if index.isMultiple(of: 2) { try await store.deleteSession(id: id) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.deleteSessions(idleFor: .zero) == 4)
        #expect(statistics.statementsRun - run > 80, "the calls ran statements")
        #expect(statistics.statementsOffOwner - off == 0, "none of them on a caller's thread")
    }

    /// The threads of this process named `name` (Linux keeps 15 characters of a thread's name).
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    @Test("a database's thread is named, runs while the database is in use, and ends once it is released")
    func threadEndsWithItsDatabase() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "dw-sq-lifetime"
        do {
            let databases = try (0..<10).map { index in
                try SQLiteDatabase(path: directory.appendingPathComponent("\(index).sqlite").path, name: name)
            }
            for database in databases { #expect(try await database.perform { try $0.query("SELECT 1") } == [[.integer(1)]]) }
            // /proc shows a name once the kernel has it: nothing of ours signals that.
            #expect(await eventually("the kernel lists each store's named thread") { Self.threads(named: name) == 10 })
        }
        #expect(await eventually("each store's thread exits once its database is released") { Self.threads(named: name) == 0 },
                "each thread ended with its database")
    }
}
