import DiffableWeb
import PostgresNIO

// What the store tells the metrics (`diffableweb_sessions{location="store"}`).
extension PostgresSessionStore {
    /// The sessions the database holds, every node's.
    public func sessionCount() async throws -> Int? {
        for try await count in try await client.query("SELECT count(*)::bigint FROM sessions", logger: logger).decode(Int.self) {
            return count
        }
        return nil
    }
}
