import CompositionalLayout

// Self-sizing: the sizes a browser measured for the cells it shows (`POST …/measure`) lay the
// list out again at that width, and the streams that show it get the moved frames.
extension LiveList {
    /// Takes the sizes stream `streamID`'s browser measured (at its window's width) and sends
    /// every stream of that width whose held cells moved a `window` event (`measured`).
    /// Measurements of cells that do not size themselves change nothing (their heights are not
    /// estimated); those of cells the list does not have are dropped. Kept measurements follow
    /// their cells by name (through moves, and a delete and insert of the same id).
    /// What is kept counts against the session's memory budget, as the list's items do.
    /// - Returns: `false` when there is no such stream.
    /// - Throws: ``MemoryBudgetError`` when keeping the new sizes would pass the session's budget
    ///   or the server's (nothing is kept).
    func measure(streamID: String, sizes: [(id: String, size: LayoutPixelSize)]) async throws(MemoryBudgetError) -> Bool {
        let outcome: Result<Bool, MemoryBudgetError>
        do {
            outcome = try await writer.run { self.takeMeasurements(streamID: streamID, sizes: sizes) }
        } catch {
            return false   // the list is closing
        }
        return try outcome.get()
    }

    /// In the writer: records, then lays out and sends outside the state lock.
    private func takeMeasurements(streamID: String, sizes: [(id: String, size: LayoutPixelSize)]) -> Result<Bool, MemoryBudgetError> {
        guard let measuring = state.withLock({ $0.followers.follower(streamID: streamID) }) else { return .success(false) }
        let width = measuring.window.container.width
        let (version, snapshot) = dataSource.versionedSnapshot()
        // Only cells of the list are kept (an id it does not have would only take room).
        let known = sizes.filter { snapshot.contains(item: $0.id) || ListLayout.supplementaryPath($0.id, in: snapshot) != nil }
        if let account = memory.account {
            let growth = measurements.withLock { $0.growth(recording: known, width: width) }
            do throws(MemoryBudgetError) {
                try account.check(growth: growth)
            } catch {
                return .failure(error)
            }
        }
        let (recorded, table, held) = measurements.withLock {
            ($0.record(known, width: width), $0.table(forWidth: width), $0.heldBytes)
        }
        memory.setMeasured(held)
        guard recorded.changed else { return .success(true) }
        if !recorded.forgot {
            layouts.applyMeasurements(width: width, previous: recorded.previousGeneration, known, table: table)
        }
        let followers = state.withLock { $0.followers.all.filter { $0.window.container.width == width } }
        for follower in followers {
            sendWindow(to: follower, version: version, snapshot: snapshot, always: false, measured: true)
        }
        return .success(true)
    }

    /// The sizes measured for `container`'s width, by cell (the API's layout route reports
    /// which frames are measured).
    func measuredSizes(forWidth width: Double) -> MeasuredSizes.Table {
        measurements.withLock { $0.table(forWidth: width) }
    }
}
