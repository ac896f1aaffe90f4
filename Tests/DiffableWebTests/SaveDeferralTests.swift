import Foundation
import HTTPTestSupport
import MicroHTTP
import Synchronization
import Testing
@testable import DiffableWeb

/// Session 12: a request whose write is saved on the store's thread answers through a promise
/// that thread fulfils (``SaveDeferral``), instead of a task resumed on the cooperative pool
/// only to pass the answer on. The answer still waits for the save, and a failed save still
/// answers 503 with nothing kept.
@Suite("A write's answer is promised until its save completes")
struct SaveDeferralTests {
    static func numbers(in directory: URL) async throws -> (WebApp, GatedSessionStore, String) {
        let store = GatedSessionStore(try SQLiteSessionStore(directory: directory.path))
        let (app, root) = try await numbersApp(on: store)
        return (app, store, root)
    }

    static func request(_ route: String, _ root: String) -> Request {
        let (method, target, body): (HTTPMethod, String, String) = switch route {
        case "action": (.post, "\(root)/actions/append", "{}")
        case "operations": (.post, "\(root)/operations", #"{"operations":[{"op":"deleteItems","items":["n1"]}]}"#)
        default: (.put, "\(root)/snapshot", #"{"sections":[{"id":"main","items":["n2","n1"]}]}"#)
        }
        return Request(method: method, target: target, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    /// `app.respond(request)`, recorded as an issue (and unblocked by releasing the held
    /// saves) when it does not return while its save is held: it would wait for the save.
    /// (It returns when it is done, however slow the machine: only a response that waits for
    /// the held save never returns, and the hang guard, ``Patience/hang``, says so.)
    static func respondWhileHeld(_ app: WebApp, _ store: GatedSessionStore, _ request: Request) async -> Response {
        let task = Task { await app.respond(request) }
        let returned = CountSignal()
        Task { _ = await task.value; returned.signal() }
        if await !returned.wait(for: 1) {
            Issue.record("the response waited for its save")
            store.release()
        }
        return await task.value
    }

    @Test("an action, operations and a PUT: promised while the save is held, then answered 200 with the saved version",
          arguments: ["action", "operations", "put"])
    func promisedUntilSaved(route: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (app, store, root) = try await Self.numbers(in: directory)
        let version = try #require(await app.handle(Request(method: .get, target: "\(root)/snapshot")).json?["version"] as? Int)

        store.holding.store(true, ordering: .releasing)
        let response = await Self.respondWhileHeld(app, store, Self.request(route, root))
        guard case .promised = response.body else {
            Issue.record("answered before its save: \(response.status)")
            return
        }
        #expect(store.held == 1)
        store.release()
        let answer = await response.settled
        #expect(answer.status == .ok, "\(answer.status) \(answer.json ?? [:])")
        let after = await app.handle(Request(method: .get, target: "\(root)/snapshot"))
        #expect(after.json?["version"] as? Int == version + 1)
    }

    @Test("a save that fails: the promised answer is 503 store_unavailable, and the list is made again without the change")
    func failedSave() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (app, store, root) = try await Self.numbers(in: directory)
        let before = await app.handle(Request(method: .get, target: "\(root)/snapshot"))
        let version = try #require(before.json?["version"] as? Int)

        store.holding.store(true, ordering: .releasing)
        store.failsHeld.store(true, ordering: .releasing)
        let response = await Self.respondWhileHeld(app, store, Self.request("operations", root))
        guard case .promised = response.body else {
            Issue.record("answered before its save: \(response.status)")
            return
        }
        store.release()
        let answer = await response.settled
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.json?["error"] as? String == "store_unavailable")
        #expect(answer.headers["X-Content-Type-Options"] == "nosniff", "the error answer is secured like any other")

        store.holding.store(false, ordering: .releasing)
        let after = await app.handle(Request(method: .get, target: "\(root)/snapshot"))
        #expect(after.json?["version"] as? Int == version, "the unsaved change is gone")
        let ids = ((after.json?["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids?.contains("n1") == true)
    }

    @Test("a read is never promised, nor a write whose save is already complete")
    func notPromised() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (app, store, root) = try await Self.numbers(in: directory)
        store.holding.store(true, ordering: .releasing)
        let read = await app.respond(Request(method: .get, target: "\(root)/snapshot"))
        if case .promised = read.body { Issue.record("a read was promised") }
        store.holding.store(false, ordering: .releasing)
        store.completesAtOnce.store(true, ordering: .releasing)
        let write = await app.respond(Self.request("operations", root))
        if case .promised = write.body { Issue.record("a write saved at once was promised") }
        #expect(write.status == .ok)
    }

    @Test("only the request's own task defers, until its response is known: a task it starts (a demo's loader) and a write after the answer await their saves")
    func onlyTheRequestsTask() async throws {
        let deferral = SaveDeferral()
        let (own, started) = await SaveDeferral.$current.withValue(deferral) { () -> (Bool, Bool) in
            let own = SaveDeferral.forCurrentTask === deferral
            // Inherits the task-local, but is not the request's task.
            let started = await Task { SaveDeferral.current === deferral && SaveDeferral.forCurrentTask == nil }.value
            return (own, started)
        }
        #expect(own, "the request's task defers")
        #expect(started, "a task started during the request inherits the deferral but does not join it")

        let receipt = SaveReceipt()
        let ran = Atomic(0)
        let added = deferral.add(receipt, first: { _ in ran.add(1, ordering: .relaxed) })
        #expect(added)
        #expect(deferral.settledNow() == nil, "a save on its way: not settled")
        let answered = Atomic(false)
        let now = deferral.settle { failure in answered.store(failure == nil, ordering: .releasing) }
        #expect(now == nil, "settled later, by the save")
        let addedLate = deferral.add(SaveReceipt(), first: { _ in })
        #expect(!addedLate, "the response is known: a later save is not the request's")
        let joins = SaveDeferral.$current.withValue(deferral) { SaveDeferral.forCurrentTask?.add(SaveReceipt(), first: { _ in }) ?? false }
        #expect(!joins, "nor a write of the request's own task once its response is known")
        receipt.complete(.success(()))
        let (firstRan, wasAnswered) = (ran.load(ordering: .relaxed), answered.load(ordering: .acquiring))
        #expect(firstRan == 1)
        #expect(wasAnswered, "the last save completed answers the request")
    }
}

/// A store whose saves complete when the test says (`holding`; with `failsHeld`, such a save
/// is not made and fails), or before `write` returns (`completesAtOnce`), and otherwise is the
/// store it wraps.
final class GatedSessionStore: WrappingSessionStore {
    let base: any SessionStore
    let holding = Atomic(false), failsHeld = Atomic(false), completesAtOnce = Atomic(false)
    private let waiting = Mutex<[(SaveReceipt?, SaveReceipt)]>([])
    init(_ base: any SessionStore) { self.base = base }

    var held: Int { waiting.withLock { $0.count } }

    /// Completes every held save: as its real save did, or with a failure when it was not made.
    func release() {
        for (real, gated) in waiting.withLock({ w in defer { w = [] }; return w }) {
            if let real {
                real.whenComplete { gated.complete($0) }
            } else {
                gated.complete(.failure(ListStoreError.saveFailed("the disk is full")))
            }
        }
    }

    func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                            _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
        if holding.load(ordering: .acquiring), failsHeld.load(ordering: .acquiring) {
            let (value, _) = try body(nil)
            let gated = SaveReceipt()
            waiting.withLock { $0.append((nil, gated)) }
            return (value, gated)
        }
        let (value, real) = try await base.write(key, from: local, body, undo: undo)
        if completesAtOnce.load(ordering: .acquiring) {
            try await real.wait()
            return (value, real)
        }
        guard holding.load(ordering: .acquiring) else { return (value, real) }
        let gated = SaveReceipt()
        waiting.withLock { $0.append((real, gated)) }
        return (value, gated)
    }
}
