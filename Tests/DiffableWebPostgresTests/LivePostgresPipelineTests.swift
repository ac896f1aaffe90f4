@testable import DiffableWebPostgres
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Synchronization
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// A list's saves pipelined on PostgreSQL: many writers on one list through the live layer,
/// two processes on one list, and a pipelined save that loses to another process's.
@Suite(.serialized)
struct LivePostgresPipelineTests {
    private static let logger = {
        var logger = Logger(label: "postgres-pipeline-test")
        logger.logLevel = .warning
        return logger
    }()

    private static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A private PostgreSQL and two stores on it (two processes), closed after `body`.
    private func withTwoStores(_ body: (PostgresSessionStore, PostgresSessionStore) async throws -> Void) async throws {
        let server = try await PrivatePostgres.start()
        defer { server.stop() }
        let one = try await PostgresSessionStore.started(url: server.url, logger: Self.logger)
        let two = try await PostgresSessionStore.started(url: server.url, logger: Self.logger)
        do {
            try await body(one, two)
        } catch {
            await one.stop()
            await two.stop()
            throw error
        }
        await one.stop()
        await two.stop()
    }

    private func makeApp(_ store: PostgresSessionStore) async throws -> WebApp {
        var configuration = WebConfiguration(publicDirectory: Self.packageRoot + "/Public", templatesDirectory: Self.packageRoot + "/templates",
                                             demos: try BuiltInDemos.table())
        configuration.sessionStore = store
        return try await WebApp(configuration: configuration)
    }

    private func send(_ app: WebApp, _ method: HTTPMethod, _ target: String, cookie: String?, json: String? = nil) async -> Response {
        var headers: HTTPHeaders = [:]
        if let cookie { headers["Cookie"] = "dw_session=\(cookie)" }
        if json != nil { headers["Content-Type"] = "application/json" }
        return await app.handle(Request(method: method, target: target, headers: headers, body: Array((json ?? "").utf8)))
    }

    private func text(_ response: Response) -> String {
        if case .bytes(let bytes) = response.body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }

    /// A new session's cookie, from a visit to the Numbers page.
    private func newSession(_ app: WebApp) async throws -> String {
        let response = await send(app, .get, "/demos/numbers", cookie: nil)
        for value in response.headers.values(for: "Set-Cookie") where value.hasPrefix("dw_session=") {
            return String(value.dropFirst("dw_session=".count).prefix { $0 != ";" })
        }
        throw PipelineTestError(description: "no session cookie (\(response.status))")
    }

    /// `writers` tasks appending `each` times to the session's Numbers list on `app`: the
    /// versions answered 200, and the answers that were not 200.
    private func append(on app: WebApp, cookie: String, writers: Int, each: Int) async -> (versions: [Int], refused: [Response]) {
        await withTaskGroup(of: ([Int], [Response]).self) { group in
            for _ in 0..<writers {
                group.addTask {
                    var versions: [Int] = [], refused: [Response] = []
                    for _ in 0..<each {
                        let response = await send(app, .post, "/demos/numbers/actions/append", cookie: cookie, json: "{}")
                        let object = try? JSONSerialization.jsonObject(with: Data(text(response).utf8)) as? [String: Any]
                        if response.status == .ok, let version = object?["version"] as? Int {
                            versions.append(version)
                        } else {
                            refused.append(response)
                        }
                    }
                    return (versions, refused)
                }
            }
            return await group.reduce(into: ([], [])) { $0.0 += $1.0; $0.1 += $1.1 }
        }
    }

    @Test("16 writers on one list: every answered write is saved, its events go out in order without gaps, and saves were merged")
    func concurrentWritersMerge() async throws {
        let server = try await PrivatePostgres.start()
        defer { server.stop() }
        let store = try await PostgresSessionStore.started(url: server.url, logger: Self.logger)
        store.pipelines.withLock { $0.warmUp = .zero }  // pipelined from the first write
        let app = try await makeApp(store)
        let cookie = try await newSession(app)
        let key = ListKey(session: try #require(SessionID(cookie)), demo: "numbers")
        let first = try #require(try await store.list(key))
        let writers = 16, each = 10
        let (versions, refused) = await append(on: app, cookie: cookie, writers: writers, each: each)
        #expect(refused.isEmpty, "\(refused.map { text($0) })")
        #expect(versions.sorted() == Array((first.version + 1)...(first.version + writers * each)), "each answer its own version")
        let list = try #require(app.sessions.existing(key.session)?.existingLists["numbers"])
        let logged = list.recentEvents.map(\.id.version).filter { $0 > first.version }
        #expect(logged == Array((first.version + 1)...(first.version + writers * each)), "events in version order, none missing")
        #expect(store.mergedWrites > 0, "writes that queued up were saved together (\(store.pipelinedSaves) statements)")
        #expect(store.pipelinedSaves < writers * each)

        // Every answered write is in the store, as this process and a new one read it.
        let saved = try #require(try await store.list(key))
        #expect(saved.version == first.version + writers * each)
        #expect(saved.sections.first?.items == list.dataSource.snapshot().itemIdentifiers)
        await store.stop()
        let reopened = try await PostgresSessionStore.started(url: server.url, logger: Self.logger)
        let again = try #require(try await reopened.list(key))
        #expect(again.version == saved.version && again.sections == saved.sections)
        #expect(again.sections.first?.items.count == (first.sections.first?.items.count ?? 0) + writers * each)
        await reopened.stop()
    }

    @Test("two processes writing one list at once: nothing answered is lost, the versions are one chain, a write whose save lost runs again (a refused one is a 503 that says try again)")
    func twoProcessesOneList() async throws {
        try await withTwoStores { one, two in
            let (appOne, appTwo) = (try await makeApp(one), try await makeApp(two))
            let cookie = try await newSession(appOne)
            let key = ListKey(session: try #require(SessionID(cookie)), demo: "numbers")
            let first = try #require(try await one.list(key))
            async let fromOne = append(on: appOne, cookie: cookie, writers: 8, each: 15)
            async let fromTwo = append(on: appTwo, cookie: cookie, writers: 8, each: 15)
            let (a, b) = await (fromOne, fromTwo)
            let answered = a.versions + b.versions
            for response in a.refused + b.refused {
                #expect(response.status == .serviceUnavailable)
                #expect(text(response).contains("store_unavailable") && text(response).contains("try again"), "\(text(response))")
            }
            #expect(Set(answered).count == answered.count, "no version answered twice")
            let saved = try #require(try await two.list(key))
            // Each answered append added one item, and nothing else was saved.
            #expect(saved.version == first.version + answered.count)
            #expect(saved.sections.first?.items.count == (first.sections.first?.items.count ?? 0) + answered.count)
            #expect(Set(answered) == Set((first.version + 1)...saved.version), "the answered versions are the saved chain")
            #expect(saved.events.map(\.version) == Array((saved.version - saved.events.count + 1)...saved.version))
            // A write whose pipelined save lost runs again on the list made again (WebApp): a
            // refused answer needs a lost save behind it, at every one of its attempts.
            #expect(a.refused.count + b.refused.count <= one.refusedWrites + two.refusedWrites)
        }
    }

    @Test("a pipelined save that lost fails its write; the list's writes are refused until it is read again, then saved serially")
    func lostSaveRefusesUntilRead() async throws {
        try await withTwoStores { one, two in
            for store in [one, two] { store.pipelines.withLock { $0.warmUp = .zero } }
            let key = ListKey(session: SessionID.random(), demo: "numbers")
            try await one.saveSession(id: key.session, shareID: SessionID.random())
            #expect(try await one.createList(key, StoredList(demo: "numbers", version: 1, epoch: "e1", sections: [.init(id: "main", items: [])],
                                                             state: [:])) == nil)
            func write(_ version: Int, on store: PostgresSessionStore) async throws -> SaveReceipt {
                let change = StoredChange(event: StoredEvent(version: version, name: "changeset", data: "x\(version)"),
                                          changeset: "{\"i\":[[\"x\(version)\",0,\(version - 2)]]}")
                return try await store.write(key, from: ListPosition(version: version - 1, epoch: "e1"), { _ in
                    ((), ListWrite(version: version, epoch: "e1", changes: [change], state: [:], checkpoint: nil))
                }, undo: { _ in }).saved
            }
            try await write(2, on: one).wait()
            try await write(3, on: two).wait()
            // The first process did not hear of version 3 (it does not listen): its save loses.
            let lost = try await write(3, on: one)
            await #expect(throws: ListStoreError.self) { try await lost.wait() }
            #expect(one.refusedWrites == 1)
            // Made on the lost write: refused before it runs.
            await #expect(throws: ListStoreError.self) { _ = try await write(4, on: one) }
            // Read again (the live layer makes the list again from the store): saved, serially.
            #expect(try await one.list(key)?.version == 3)
            try await write(4, on: one).wait()
            let saved = try #require(try await two.list(key))
            #expect(saved.version == 4 && saved.events.map(\.data) == ["x2", "x3", "x4"])
        }
    }

    @Test("a process whose save lost tells the one that won: that one's writes of the list turn serial")
    func lostRaceIsHeard() async throws {
        try await withTwoStores { one, two in
            one.pipelines.withLock { $0.warmUp = .zero }
            let key = ListKey(session: SessionID.random(), demo: "numbers")
            try await one.saveSession(id: key.session, shareID: SessionID.random())
            #expect(try await one.createList(key, StoredList(demo: "numbers", version: 1, epoch: "e1", sections: [.init(id: "main", items: [])],
                                                             state: [:])) == nil)
            let heard = Heard()
            one.observeChanges(connected: { heard.connected() }, changed: { _, _ in })
            try await heard.waitConnected()
            two.wroteElsewhere(key)  // the second writes serially (it heard of the first lately)
            func write(_ version: Int, from base: Int, on store: PostgresSessionStore) async throws -> SaveReceipt {
                try await store.write(key, from: ListPosition(version: base, epoch: "e1"), { _ in
                    ((), ListWrite(version: version, epoch: "e1", changes: [], state: [:], checkpoint: nil))
                }, undo: { _ in }).saved
            }
            #expect(one.saveMode(key) == .pipelined)
            try await write(2, from: 1, on: one).wait()
            // The second is behind: its save loses, and its write, run again under the lock, is
            // refused (nothing saved, nothing notified by the save).
            await #expect(throws: (any Error).self) {
                _ = try await two.write(key, from: ListPosition(version: 1, epoch: "e1"), { missed -> ((), ListWrite?) in
                    if missed != nil { throw PipelineTestError(description: "refused after the catch-up") }
                    return ((), ListWrite(version: 2, epoch: "e1", changes: [], state: [:], checkpoint: nil))
                }, undo: { _ in })
            }
            #expect(two.conflicts == 1)
            #expect(await eventually("PostgreSQL delivers the second process's notification to the first") {
                one.saveMode(key) == .serial
            }, "the first process heard that the second writes the list too")
        }
    }
}

/// Whether a store's listening connection is up: the store signals it (`connected`).
private final class Heard: Sendable {
    private let up = CountSignal()
    func connected() { up.signal() }
    func waitConnected() async throws {
        guard await up.wait(for: 1) else { throw PipelineTestError(description: "the store never listened") }
    }
}

private struct PipelineTestError: Error, CustomStringConvertible {
    var description: String
}
