@testable import DiffableWebPostgres
import Logging
import Synchronization

// A test has no ServiceGroup: its stores' services (pool and listening connection) run in tasks
// of their own, from `started` until `stop()`.
extension PostgresSessionStore {
    private static let services = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])

    /// A store on `url` whose service runs.
    static func started(url: String, eventLogCapacity: Int = 64, logger: Logger) async throws -> PostgresSessionStore {
        let store = try await PostgresSessionStore(url: url, eventLogCapacity: eventLogCapacity, logger: logger)
        let service = Task { await store.run() }
        services.withLock { $0[ObjectIdentifier(store)] = service }
        return store
    }

    /// Closes the store and ends its service (as a group's stop does: the app's close, then the
    /// store's service).
    func stop() async {
        await close()
        guard let service = Self.services.withLock({ $0.removeValue(forKey: ObjectIdentifier(self)) }) else { return }
        service.cancel()
        await service.value
    }
}
