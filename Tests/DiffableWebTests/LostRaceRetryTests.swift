import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import DiffableWeb

/// Session 11: on PostgreSQL a list's writes are pipelined, and a pipelined save that loses to
/// another process's fails its write (``ListStoreError/lostRace(_:)``); the request was answered
/// 503 "try again". The live layer now makes the list again from the store and runs the request
/// again on it, as the serial path runs a write again after its catch-up.
@Suite("A write whose save lost to another process runs again on the list made again")
struct LostRaceRetryTests {
    /// An app on a racing store in `directory`, and a new session's Numbers list in the API.
    static func numbers(in directory: URL) async throws -> (WebApp, RacingSessionStore, String) {
        let store = RacingSessionStore(try SQLiteSessionStore(directory: directory.path))
        let (app, root) = try await numbersApp(on: store)
        return (app, store, root)
    }

    @Test("an action, a script's operations and a PUT whose first save loses: answered 200, saved once, nothing of the lost try kept",
          arguments: ["action", "operations", "put"])
    func runsAgain(route: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (app, store, root) = try await Self.numbers(in: directory)
        let before = await app.handle(Request(method: .get, target: "\(root)/snapshot"))
        let items = try #require((before.json?["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])

        store.losesNext.store(1, ordering: .releasing)
        let (method, target, body): (HTTPMethod, String, String) = switch route {
        case "action": (.post, "\(root)/actions/append", "{}")
        case "operations": (.post, "\(root)/operations", #"{"operations":[{"op":"deleteItems","items":["n1"]}]}"#)
        default: (.put, "\(root)/snapshot", #"{"sections":[{"id":"main","items":["n2","n1"]}]}"#)
        }
        let answer = await app.handle(Request(method: method, target: target, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        #expect(answer.status == .ok, "\(answer.status) \(answer.json ?? [:])")
        #expect(store.lost.load(ordering: .acquiring) == 1, "the first save lost")

        let after = await app.handle(Request(method: .get, target: "\(root)/snapshot"))
        let ids = ((after.json?["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(after.json?["version"] as? Int == (before.json?["version"] as? Int ?? 0) + 1, "one version: the lost try left nothing")
        switch route {
        case "action": #expect(ids?.count == items.count + 1)
        case "operations": #expect(ids?.contains("n1") == false && ids?.count == items.count - 1)
        default: #expect(ids == ["n2", "n1"])
        }
    }

    @Test("a save that keeps losing: after three tries the answer is 503 store_unavailable, try again, and nothing is kept")
    func givesUp() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (app, store, root) = try await Self.numbers(in: directory)
        let version = await app.handle(Request(method: .get, target: "\(root)/snapshot")).json?["version"] as? Int

        store.losesNext.store(10, ordering: .releasing)
        let answer = await app.handle(Request(method: .post, target: "\(root)/actions/append", headers: ["Content-Type": "application/json"],
                                              body: Array("{}".utf8)))
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.json?["error"] as? String == "store_unavailable")
        #expect((answer.json?["message"] as? String)?.contains("try again") == true)
        #expect(store.lost.load(ordering: .acquiring) == WebApp.lostRaceAttempts)
        store.losesNext.store(0, ordering: .releasing)
        #expect(await app.handle(Request(method: .get, target: "\(root)/snapshot")).json?["version"] as? Int == version)
    }
}

/// A store whose next `losesNext` saves lose to "another process" (the write runs, its receipt
/// fails with ``ListStoreError/lostRace(_:)``, nothing is saved), and otherwise is the store it wraps.
final class RacingSessionStore: WrappingSessionStore {
    let base: any SessionStore
    let losesNext = Atomic(0), lost = Atomic(0)
    init(_ base: any SessionStore) { self.base = base }

    func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                            _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
        let loses = losesNext.load(ordering: .acquiring) > 0
        guard loses else { return try await base.write(key, from: local, body, undo: undo) }
        losesNext.subtract(1, ordering: .acquiringAndReleasing)
        let (value, write) = try body(nil)
        let receipt = SaveReceipt(mayLoseRace: true)
        if write != nil {
            lost.add(1, ordering: .acquiringAndReleasing)
            receipt.complete(.failure(ListStoreError.lostRace("another server process changed this list at the same time; try again")))
        } else {
            receipt.complete(.success(()))
        }
        return (value, receipt)
    }
}
