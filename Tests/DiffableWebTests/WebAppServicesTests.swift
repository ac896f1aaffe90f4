import Foundation
import HTTPTestSupport
import MicroHTTP
import ServiceLifecycle
import Synchronization
import Testing
@testable import DiffableWeb

/// `WebApp.services(server:shutdownGrace:)` in a ServiceGroup: on graceful shutdown the server
/// stops first, the app closes, and a store that is a service stops last.
@Suite("WebApp's services in a ServiceGroup")
struct WebAppServicesTests {
    /// A SQLite store that is a service too, and says when things happen to it.
    final class ServiceStore: WrappingSessionStore, Service {
        let base: any SessionStore
        let steps = Mutex<[String]>([])
        let server: HTTPServer?
        init(_ base: any SessionStore, server: HTTPServer? = nil) { self.base = base; self.server = server }

        func write<T: Sendable>(_ key: ListKey, from local: ListPosition,
                                _ body: (ListCatchUp?) throws -> (T, ListWrite?), undo: (UndoStep) -> Void) async throws -> (value: T, saved: SaveReceipt) {
            try await base.write(key, from: local, body, undo: undo)
        }

        func run() async {
            steps.withLock { $0.append("run") }
            try? await gracefulShutdown()
            steps.withLock { $0.append("stopped") }
        }

        func close() async {
            steps.withLock { $0.append("closed") }
            await base.close()
        }
    }

    @Test("the group lists the store first and the server last; its stop stops the server, then closes the app, then the store")
    func stopOrder() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ServiceStore(try SQLiteSessionStore(directory: directory.path))
        let app = try await makeApp { $0.sessionStore = store }
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), logger: quietLogger) { await app.respond($0) }
        try server.start()
        let services = app.services(server: server, shutdownGrace: .milliseconds(200))
        #expect(services.map(\.serviceName) == ["diffable-web.store", "diffable-web.close", "diffable-web.memory",
                                                "diffable-web.maintenance", "diffable-web.http"])
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let created = await app.handle(Request(method: .post, target: "/api/sessions"))
            #expect(created.status == .created)
            #expect(server.isRunning)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(!server.isRunning, "the server stopped")
        #expect(store.steps.withLock { $0 } == ["run", "closed", "stopped"], "the app closed before the store's service stopped")
    }

    @Test("without a store that is a service, the group has the app's four")
    func withoutStoreService() async throws {
        let app = try await makeApp()
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), logger: quietLogger) { await app.respond($0) }
        #expect(app.services(server: server).map(\.serviceName) == ["diffable-web.close", "diffable-web.memory",
                                                                    "diffable-web.maintenance", "diffable-web.http"])
    }
}
