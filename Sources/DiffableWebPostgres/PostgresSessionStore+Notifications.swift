import DiffableWeb
import PostgresNIO

// Notifications: what other processes saved, heard on one connection of its own.
extension PostgresSessionStore {
    /// Calls `changed` for every list another process wrote, until the store closes;
    /// `connected` after each (re)connection of the listening connection (notifications may
    /// have been missed while it was down: catch up on every list).
    public func observeChanges(connected: @escaping @Sendable () -> Void, changed: @escaping @Sendable (ListKey, Int) -> Void) {
        let (configuration, logger, processID) = (listenConfiguration, logger, processID)
        // Writes to that list are serial for a while (see ``SaveMode/serial``).
        let wroteElsewhere: @Sendable (ListKey) -> Void = { [weak self] key in self?.wroteElsewhere(key) }
        let task = Task {
            var attempt = 0
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                    do {
                        try await connection.listen(on: Self.channel) { notifications in
                            attempt = 0
                            connected()
                            for try await notification in notifications {
                                let parts = notification.payload.split(separator: " ")
                                guard parts.count == 4, parts[0] != processID, let session = SessionID(String(parts[1])),
                                      let version = Int(parts[3]) else { continue }
                                let key = ListKey(session: session, demo: String(parts[2]))
                                wroteElsewhere(key)
                                changed(key, version)
                            }
                        }
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                } catch {
                    if Task.isCancelled { break }
                    attempt += 1
                    logger.warning("the PostgreSQL notification connection failed; retrying", metadata: ["error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: .milliseconds(min(2_000, 100 * attempt)))
                }
            }
        }
        tasks.withLock { $0.append(task) }
    }
}
