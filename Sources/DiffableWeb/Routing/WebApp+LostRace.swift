// A write that lost its save to another server process, run again on the list made again.
extension WebApp {
    /// How many times a request's write runs at most when another process keeps saving its
    /// list first (then the answer is 503 `store_unavailable`, "try again").
    static let lostRaceAttempts = 3

    /// Runs `write` on `list`, and again (on the list made again from the store) when another
    /// server process saved a change to the list first (``ListStoreError/lostRace(_:)``: a
    /// pipelined save on PostgreSQL; nothing of the write was saved, shown or answered). Like
    /// the serial path's catch-up, the request then applies to what the other process wrote: an
    /// `ifVersion` it named is checked against that.
    func retryingLostRace<T: Sendable>(_ session: Session, _ descriptor: DemoDescriptor, _ list: LiveList,
                                       _ write: (LiveList) async throws -> T) async throws -> T {
        var list = list
        var attempt = 1
        while true {
            do {
                return try await write(list)
            } catch ListStoreError.lostRace(let reason) where attempt < Self.lostRaceAttempts {
                logger.info("a write lost its save to another server process; running it again", metadata: [
                    "demo": "\(descriptor.name)", "attempt": "\(attempt)", "reason": "\(reason)",
                ])
                attempt += 1
                list = try await self.list(session, descriptor)
            }
        }
    }
}
