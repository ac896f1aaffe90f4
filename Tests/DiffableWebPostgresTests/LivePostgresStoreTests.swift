import DiffableWeb
@testable import DiffableWebPostgres
import Foundation
import HTTPTestSupport
import Logging
import PostgresNIO
import Testing

/// One process's copy of a list, as the live layer keeps it: its items (one section) and where
/// it stands. Changes are appends; an event's data is the appended item.
private struct ModelList {
    var items: [String] = []
    var version = 1
    var epoch = "e1"
    var position: ListPosition { ListPosition(version: version, epoch: epoch) }

    mutating func catchUp(_ missed: ListCatchUp) {
        switch missed {
        case .changes(let changes, let version, _):
            items += changes.map(\.event.data)
            self.version = version
        case .list(let stored):
            items = stored.sections.first?.items ?? []
            version = stored.version
        }
    }

    /// Appends `item` as the next version: what to save.
    mutating func append(_ item: String) -> ListWrite {
        items.append(item)
        version += 1
        let changeset = "{\"i\":[[\"\(item)\",0,\(items.count - 1)]]}"
        let change = StoredChange(event: StoredEvent(version: version, name: "changeset", data: item), changeset: changeset)
        return ListWrite(version: version, epoch: epoch, changes: [change], state: ["count": "\(items.count)"], checkpoint: nil)
    }
}

/// What one write did: how often its body ran, and whether it was undone.
private struct WriteTrace {
    var runs = 0
    var undone = 0
    var missed: [ListCatchUp?] = []
}

private struct Refusal: Error {}

@Suite(.serialized)
struct LivePostgresStoreTests {
    private static let logger = {
        var logger = Logger(label: "postgres-store-test")
        logger.logLevel = .warning  // not each conflict
        return logger
    }()
    private static let key = ListKey(session: SessionID.random(), demo: "numbers")

    /// A private PostgreSQL with two stores on it (two processes), and an empty list saved.
    /// `serial`: both write the list serially, as when each heard the other write it lately
    /// (the lock-and-catch-up path; otherwise their writes are pipelined).
    private func withTwoProcesses(serial: Bool = false, _ body: (PostgresSessionStore, PostgresSessionStore, PrivatePostgres) async throws -> Void) async throws {
        let server = try await PrivatePostgres.start()
        defer { server.stop() }
        let first = try await PostgresSessionStore.started(url: server.url, eventLogCapacity: 64, logger: Self.logger)
        let second = try await PostgresSessionStore.started(url: server.url, eventLogCapacity: 64, logger: Self.logger)
        if serial {
            for store in [first, second] { store.wroteElsewhere(Self.key, at: .now + .seconds(3_600)) }
        }
        do {
            try await first.saveSession(id: Self.key.session, shareID: SessionID.random())
            let empty = StoredList(demo: Self.key.demo, version: 1, epoch: "e1", sections: [.init(id: "main", items: [])], state: [:])
            #expect(try await first.createList(Self.key, empty) == nil)
            try await body(first, second, server)
        } catch {
            await first.stop()
            await second.stop()
            throw error
        }
        await first.stop()
        await second.stop()
    }

    private func append(_ item: String, to list: inout ModelList, on store: PostgresSessionStore,
                        trace: inout WriteTrace) async throws -> Int {
        let before = list
        let (version, saved) = try await store.write(Self.key, from: list.position, { missed in
            trace.runs += 1
            trace.missed.append(missed)
            if let missed { list.catchUp(missed) }
            let write = list.append(item)
            return (write.version, write)
        }, undo: { step in
            guard case .restore = step else { return }
            trace.undone += 1
            list = before
        })
        try await saved.wait()
        return version
    }

    @Test("a write at the head saves at once; one behind the head is undone, caught up and saved under the lock")
    func conflictUndoesAndCatchesUp() async throws {
        try await withTwoProcesses(serial: true) { first, second, _ in
            var a = ModelList(), b = ModelList()
            var traceA = WriteTrace(), traceB = WriteTrace()
            #expect(try await append("a1", to: &a, on: first, trace: &traceA) == 2)
            #expect(traceA.runs == 1 && traceA.undone == 0)
            #expect(first.conflicts == 0)

            // The second process is still at version 1: its optimistic save loses.
            #expect(try await append("b1", to: &b, on: second, trace: &traceB) == 3)
            #expect(traceB.runs == 2)
            #expect(traceB.undone == 1)
            #expect(traceB.missed.count == 2 && traceB.missed[0] == nil)
            #expect(traceB.missed.last.flatMap { $0 } == .changes([StoredChange(
                event: StoredEvent(version: 2, name: "changeset", data: "a1"), changeset: "{\"i\":[[\"a1\",0,0]]}")],
                version: 2, state: ["count": "1"]))
            #expect(second.conflicts == 1)
            #expect(b.items == ["a1", "b1"])

            let stored = try #require(try await first.list(Self.key))
            #expect(stored.version == 3)
            #expect(stored.sections.first?.items == ["a1", "b1"])
            #expect(stored.events.map(\.version) == [2, 3])
        }
    }

    @Test("two processes appending to one list at once lose nothing, and the versions are contiguous")
    func concurrentWritersLoseNothing() async throws {
        try await withTwoProcesses(serial: true) { first, second, _ in
            let count = 40
            async let fromFirst: [Int] = {
                var list = ModelList(), trace = WriteTrace(), versions: [Int] = []
                for i in 0..<count { versions.append(try await append("a\(i)", to: &list, on: first, trace: &trace)) }
                return versions
            }()
            async let fromSecond: [Int] = {
                var list = ModelList(), trace = WriteTrace(), versions: [Int] = []
                for i in 0..<count { versions.append(try await append("b\(i)", to: &list, on: second, trace: &trace)) }
                return versions
            }()
            let versions = try await fromFirst + fromSecond
            #expect(versions.sorted() == Array(2...(1 + 2 * count)))
            let stored = try #require(try await second.list(Self.key))
            #expect(stored.version == 1 + 2 * count)
            #expect(Set(stored.sections.first?.items ?? []) == Set((0..<count).flatMap { ["a\($0)", "b\($0)"] }))
            // Each process's own appends stay in its order.
            let items = stored.sections.first?.items ?? []
            #expect(items.filter { $0.hasPrefix("a") } == (0..<count).map { "a\($0)" })
        }
    }

    @Test("a derived list keeps its version, epoch and state only, until a write with a checkpoint makes it ordinary")
    func derivedLists() async throws {
        try await withTwoProcesses { first, second, _ in
            var list = ModelList(), trace = WriteTrace()
            _ = try await append("x", to: &list, on: first, trace: &trace)
            try await first.write(Self.key, from: list.position, { _ in
                ((), ListWrite.derived(version: 3, epoch: "e1", state: ["query": "ben"]))
            }, undo: { _ in }).saved.wait()
            let derived = StoredList(demo: Self.key.demo, version: 3, epoch: "e1", sections: [], state: ["query": "ben"], derived: true)
            #expect(try await second.list(Self.key) == derived)
            guard case .list(let caughtUp)? = try await second.catchUp(Self.key, from: ListPosition(version: 2, epoch: "e1")) else {
                Issue.record("a derived list is caught up as a whole list")
                return
            }
            #expect(caughtUp == derived)
            #expect(try await second.catchUp(Self.key, from: ListPosition(version: 3, epoch: "e1")) == nil)

            // A write that is not derived carries a checkpoint: the list is ordinary again.
            let change = StoredChange(event: StoredEvent(version: 4, name: "snapshot", data: "{}"), changeset: nil)
            try await first.write(Self.key, from: ListPosition(version: 3, epoch: "e1"), { _ in
                ((), ListWrite(version: 4, epoch: "e1", changes: [change], state: [:], checkpoint: [.init(id: "main", items: ["y", "z"])]))
            }, undo: { _ in }).saved.wait()
            let ordinary = try #require(try await second.list(Self.key))
            #expect(!ordinary.derived)
            #expect(ordinary.sections == [.init(id: "main", items: ["y", "z"])])
            #expect(ordinary.events.map(\.version) == [4])

            // A list made derived is stored in the same shape.
            let other = ListKey(session: Self.key.session, demo: "mountains")
            let made = StoredList(demo: "mountains", version: 1, epoch: "e2", sections: [], state: ["query": ""], derived: true)
            #expect(try await first.createList(other, made) == nil)
            #expect(try await second.list(other) == made)
        }
    }

    @Test("a write with nothing to save does not wait for the database; a refused one saves nothing")
    func nothingToSaveAndRefusals() async throws {
        try await withTwoProcesses { first, _, server in
            // Another connection holds the list's row: any statement on it would wait.
            let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: server.port, username: "postgres",
                                                                 password: nil, database: "postgres", tls: .disable)
            let holder = try await PostgresConnection.connect(configuration: configuration, id: 9, logger: Self.logger)
            try await holder.query("BEGIN", logger: Self.logger)
            try await holder.query("SELECT 1 FROM lists FOR UPDATE", logger: Self.logger)
            let finished = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    (try? await first.write(Self.key, from: ListPosition(version: 1, epoch: "e1"), { _ in (1, nil as ListWrite?) },
                                            undo: { _ in })) != nil
                }
                group.addTask {
                    // A write that waits for the row waits until the COMMIT below, for ever: this
                    // is the hang guard that says so, not a time the write is held to.
                    try? await Task.sleep(for: Patience.hang)
                    return false
                }
                let first = await group.next() ?? false
                // Let a write that waits finish (the lock goes), then end the sleeper.
                _ = try? await holder.query("COMMIT", logger: Self.logger)
                group.cancelAll()
                return first
            }
            try? await holder.close()
            #expect(finished, "a write with nothing to save waited for the list's row")

            var list = ModelList()
            await #expect(throws: Refusal.self) {
                _ = try await first.write(Self.key, from: list.position, { _ -> (Int, ListWrite?) in
                    _ = list.append("refused")
                    throw Refusal()
                }, undo: { _ in })
            }
            #expect(try await first.list(Self.key)?.version == 1)
        }
    }
}

extension ListCatchUp: Equatable {
    public static func == (lhs: ListCatchUp, rhs: ListCatchUp) -> Bool {
        switch (lhs, rhs) {
        case (.changes(let a, let v, let s), .changes(let b, let w, let t)): a == b && v == w && s == t
        case (.list(let a), .list(let b)): a == b
        default: false
        }
    }
}
