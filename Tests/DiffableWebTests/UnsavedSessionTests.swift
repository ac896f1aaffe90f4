import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import DiffableWeb

/// Issue 21, finding 2: with the state directory full, `POST /api/sessions` answered 201 for a
/// session that was never saved (a restart then said 404). A session that cannot be saved is
/// not acknowledged: 503 `store_unavailable`, and no cookie.
@Suite("A session the store cannot save is refused (503), never handed out")
struct UnsavedSessionTests {
    @Test("a failing store: POST /api/sessions and a cookieless page are 503 with no cookie; the index still renders; once it recovers, sessions are saved")
    func refusedWhileTheStoreFails() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FailingSessionStore(try SQLiteSessionStore(directory: directory.path))
        let app = try await makeApp { $0.sessionStore = store }
        store.failing = true

        let created = await app.handle(Request(method: .post, target: "/api/sessions"))
        #expect(created.status == .serviceUnavailable)
        #expect(created.json?["error"] as? String == "store_unavailable")
        #expect(created.sessionCookie == nil)
        let page = await app.handle(Request(method: .get, target: "/demos/numbers"))
        #expect(page.status == .serviceUnavailable && page.sessionCookie == nil)
        let index = await app.handle(Request(method: .get, target: "/"))
        #expect(index.status == .ok && index.sessionCookie == nil, "the index needs no session")
        #expect(app.sessions.count == 0, "nothing unsaved is live")

        store.failing = false
        let saved = await app.handle(Request(method: .post, target: "/api/sessions"))
        #expect(saved.status == .created)
        let cookie = try #require(saved.sessionCookie.flatMap(SessionID.init))
        #expect(try await store.session(id: cookie) != nil, "saved before it was answered")
    }
}

/// A store that refuses every write while `failing` (a full disk), and otherwise is the store
/// it wraps.
final class FailingSessionStore: SessionStore {
    private let base: any SessionStore
    private let failure = Atomic(false)
    var failing: Bool {
        get { failure.load(ordering: .acquiring) }
        set { failure.store(newValue, ordering: .releasing) }
    }
    init(_ base: any SessionStore) { self.base = base }

    struct DiskFull: Error, CustomStringConvertible { var description: String { "database or disk is full" } }
    private func check() throws { if failing { throw DiskFull() } }

    func session(id: SessionID) async throws -> StoredSession? { try await base.session(id: id) }
    func session(shareID: SessionID) async throws -> StoredSession? { try await base.session(shareID: shareID) }
    func saveSession(id: SessionID, shareID: SessionID) async throws { try check(); try await base.saveSession(id: id, shareID: shareID) }
    func deleteSession(id: SessionID) async throws { try await base.deleteSession(id: id) }
    func deleteSessions(idleFor idle: Duration) async throws -> Int { try await base.deleteSessions(idleFor: idle) }
    func touchSessions(_ ids: [SessionID]) async throws { try await base.touchSessions(ids) }
    func list(_ key: ListKey) async throws -> StoredList? { try await base.list(key) }
    func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList? { try check(); return try await base.createList(key, list) }
    func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                            _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
        try check()
        return try await base.write(key, from: local, body, undo: undo)
    }
    func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp? { try await base.catchUp(key, from: local) }
    func close() async { await base.close() }
}
