import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb

/// A test store that is the store it wraps except where it says otherwise (its `write`).
protocol WrappingSessionStore: SessionStore {
    var base: any SessionStore { get }
}

extension WrappingSessionStore {
    func session(id: SessionID) async throws -> StoredSession? { try await base.session(id: id) }
    func session(shareID: SessionID) async throws -> StoredSession? { try await base.session(shareID: shareID) }
    func saveSession(id: SessionID, shareID: SessionID) async throws { try await base.saveSession(id: id, shareID: shareID) }
    func deleteSession(id: SessionID) async throws { try await base.deleteSession(id: id) }
    func deleteSessions(idleFor idle: Duration) async throws -> Int { try await base.deleteSessions(idleFor: idle) }
    func touchSessions(_ ids: [SessionID]) async throws { try await base.touchSessions(ids) }
    func list(_ key: ListKey) async throws -> StoredList? { try await base.list(key) }
    func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList? { try await base.createList(key, list) }
    func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp? { try await base.catchUp(key, from: local) }
    func close() async { await base.close() }
}

/// An app on `store`, and the API root of a new session's Numbers list.
func numbersApp(on store: any SessionStore) async throws -> (WebApp, String) {
    let app = try await makeApp { $0.sessionStore = store }
    let created = await app.handle(Request(method: .post, target: "/api/sessions"))
    let share = try #require(created.json?["id"] as? String)
    return (app, "/api/sessions/\(share)/demos/numbers")
}
