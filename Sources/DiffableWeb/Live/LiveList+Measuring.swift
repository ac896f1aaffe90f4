import CompositionalLayout
import DiffableDataSources

// Self-sizing: the sizes a browser measured for the cells it shows (`POST …/measure`) lay the
// list out again at that width, and the streams that show it get the moved frames.
extension LiveList {
    /// What became of a message of measurements.
    enum Measuring: Equatable, Sendable {
        /// Taken (or nothing in it changed a size).
        case taken
        /// There is no such stream (nothing was kept).
        case unknownStream
        /// It measured a header, footer or decoration, which never size themselves (nothing
        /// was kept): the cell's id.
        case notSelfSizing(String)
    }

    /// Takes the sizes stream `streamID`'s browser measured (at its window's width) and sends
    /// every stream of that width whose held cells moved, or whose content size changed, a
    /// `window` event (`measured`). Measurements of items that do not size themselves change
    /// nothing (their heights are not estimated); those of cells the list does not have are
    /// dropped; one of a header, footer or decoration refuses the message
    /// (``ListLayout/fits(_:at:)``). Kept measurements follow their items by name (through
    /// moves), until a write deletes the item.
    /// When the sizes take a fourth width, the width measured least recently is forgotten and
    /// its streams get a `window` event too (their cells are back at their estimates).
    /// What is kept counts against the session's memory budget, as the list's items do.
    /// - Throws: ``MemoryBudgetError`` when keeping the new sizes would pass the session's budget
    ///   or the server's (nothing is kept).
    /// - Complexity: O(k log n) for k sizes (laying out again in place), plus one window per
    ///   stream told.
    func measure(streamID: String, sizes: [(id: String, size: LayoutPixelSize)]) async throws(MemoryBudgetError) -> Measuring {
        let outcome: Result<Measuring, MemoryBudgetError>
        do {
            outcome = try await writer.run { self.takeMeasurements(streamID: streamID, sizes: sizes) }
        } catch {
            return .unknownStream   // the list is closing
        }
        return try outcome.get()
    }

    /// In the writer: records, then lays out and sends outside the state lock.
    private func takeMeasurements(streamID: String, sizes: [(id: String, size: LayoutPixelSize)]) -> Result<Measuring, MemoryBudgetError> {
        guard let measuring = state.withLock({ $0.followers.follower(streamID: streamID) }) else { return .success(.unknownStream) }
        let width = measuring.window.container.width
        let (version, snapshot) = dataSource.versionedSnapshot()
        if let refused = sizes.first(where: { ListLayout.namesSupplementary($0.id, in: snapshot) }) {
            return .success(.notSelfSizing(refused.id))
        }
        // Only items of the list are kept (an id it does not have would only take room).
        let known = sizes.filter { snapshot.contains(item: $0.id) }
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
        if recorded.changed, !recorded.forgot {
            layouts.applyMeasurements(width: width, previous: recorded.previousGeneration, known, table: table)
        }
        // The streams of the forgotten width are told too: their layouts, made afresh with no
        // measurements, put their cells back at their estimates.
        var told: [Double] = []
        if recorded.changed { told.append(width) }
        if let forgotten = recorded.forgottenWidth { told.append(forgotten) }
        guard !told.isEmpty else { return .success(.taken) }
        let followers = state.withLock { $0.followers.all.filter { told.contains($0.window.container.width) } }
        for follower in followers {
            sendWindow(to: follower, version: version, snapshot: snapshot, always: false, measured: true)
        }
        return .success(.taken)
    }

    /// Drops the measured sizes of the items a write deleted (`deleted`: the ids its applies
    /// deleted, some perhaps inserted again by a later apply of the same write: those keep
    /// theirs), so that an item inserted again later starts at its estimate, as a new cell
    /// does. No layout of `snapshot` changes (it has none of them).
    /// - Complexity: O(d) for d deleted ids.
    func forgetMeasurements(of deleted: [String], in snapshot: Snapshot<String, String>) {
        guard !deleted.isEmpty else { return }
        let gone = deleted.filter { !snapshot.contains(item: $0) }
        let held = measurements.withLock { $0.forget(gone) ? $0.heldBytes : nil }
        if let held { memory.setMeasured(held) }
    }

    /// The sizes measured for `container`'s width, by cell (the API's layout route reports
    /// which frames are measured).
    func measuredSizes(forWidth width: Double) -> MeasuredSizes.Table {
        measurements.withLock { $0.table(forWidth: width) }
    }
}
