import DiffableWeb
import PostgresNIO
import ServiceLifecycle
import Synchronization

// Notifications: what other processes saved, heard on one connection of its own, for as long as
// the store runs (`run()`, its service).
extension PostgresSessionStore {
    /// Who hears of other processes' saves, and whether the listening connection is up.
    struct Listening {
        struct Observer {
            var connected: @Sendable () -> Void
            var changed: @Sendable (ListKey, Int) -> Void
        }
        var observers: [Observer] = []
        var connected = false
    }

    /// Calls `changed` for every list another process wrote, while the store runs and until it
    /// closes; `connected` after each (re)connection of the listening connection, and at once
    /// when it is up already (notifications may have been missed before: catch up on every list).
    public func observeChanges(connected: @escaping @Sendable () -> Void, changed: @escaping @Sendable (ListKey, Int) -> Void) {
        let isConnected = listening.withLock { listening in
            listening.observers.append(.init(connected: connected, changed: changed))
            return listening.connected
        }
        observed.continuation.yield()
        if isConnected { connected() }
    }

    /// Once someone observes the store's changes, listens on the channel until the store
    /// closes or the task is cancelled, reconnecting (with a growing pause, up to 2 s) when the
    /// connection fails.
    func listenUntilClosed() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in self.observed.stream { break }
                await self.listen()
            }
            group.addTask { for await _ in self.closed.stream {} }
            await group.next()
            group.cancelAll()
        }
    }

    private func listen() async {
        let (configuration, logger, processID) = (listenConfiguration, logger, processID)
        var attempt = 0
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        attempt = 0
                        let observers = listening.withLock { listening in
                            listening.connected = true
                            return listening.observers
                        }
                        for observer in observers { observer.connected() }
                        for try await notification in notifications {
                            let parts = notification.payload.split(separator: " ")
                            guard parts.count == 4, parts[0] != processID, let session = SessionID(String(parts[1])),
                                  let version = Int(parts[3]) else { continue }
                            let key = ListKey(session: session, demo: String(parts[2]))
                            // Writes to that list are serial for a while (see ``SaveMode/serial``).
                            wroteElsewhere(key)
                            for observer in listening.withLock({ $0.observers }) { observer.changed(key, version) }
                        }
                    }
                } catch {
                    listening.withLock { $0.connected = false }
                    try? await connection.close()
                    throw error
                }
                listening.withLock { $0.connected = false }
                try? await connection.close()
            } catch {
                if Task.isCancelled { break }
                attempt += 1
                logger.warning("the PostgreSQL notification connection failed; retrying", metadata: ["error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: .milliseconds(min(2_000, 100 * attempt)))
            }
        }
    }
}
