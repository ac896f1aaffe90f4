import DiffableDataSources
import Synchronization

// Replication: applying what other processes wrote to a shared store, in order with this
// process's writes.
extension LiveList {
    /// Applies what other processes wrote (a notification from the shared store, or a read
    /// that must see what a script wrote through another process), in order with this
    /// process's writes. A store only this process writes answers at once that nothing was
    /// missed: the writer is not even asked.
    func refresh() async {
        guard let storage, !isRetired else { return }
        do {
            guard try await storage.store.catchUp(storage.key, from: position) != nil else { return }
        } catch {
            return  // the next write or notification tries again
        }
        _ = try? await writer.run {
            guard !self.isRetired else { return }
            let ticket = self.outbox.hold()
            do {
                if let missed = try await storage.store.catchUp(storage.key, from: self.position) {
                    try self.catchUp(missed)
                    let replicated = self.takeCollected()
                    self.commit(self.publish(replicated: replicated, own: [], derived: false), ticket: ticket)
                }
                self.outbox.ready(ticket)  // saved already, by the process that wrote it
            } catch {
                self.outbox.discard(ticket)
                self.collected.withLock { $0.removeAll() }
                self.retire(because: "\(error)", storage: storage)
            }
        }
    }

    /// Brings the data source and the demo to what the store has: the changes applied as one
    /// (each stream gets one changeset), their events logged under their own versions.
    func catchUp(_ missed: ListCatchUp) throws {
        let (version, state, events, snapshot): (Int, [String: String], [StoredEvent], Snapshot<String, String>)
        switch missed {
        case .changes(let changes, let to, let stored):
            var current = dataSource.snapshot()
            for change in changes {
                guard let text = change.changeset else { throw ListStoreError.replaced }
                current = try current.applying(StoredChangeset.decode(text))
            }
            (version, state, events, snapshot) = (to, stored, changes.map(\.event), current)
        case .list(let stored):
            // Another run of the list (another epoch), or more than the store keeps: this copy
            // is retired and made again from the store.
            guard stored.epoch == epoch.value, let computed = Self.snapshot(of: stored, for: demo) else { throw ListStoreError.replaced }
            (version, state, events, snapshot) = (stored.version, stored.state, stored.events, computed)
        }
        guard version > dataSource.version else { return }
        demo.restore(state: state)
        dataSource.apply(snapshot, asVersion: version)
        self.state.withLock { state in
            for event in events where event.version > (state.log.latest?.version ?? 0) {
                state.log.append(LoggedEvent(id: EventID(version: event.version), name: event.name, data: event.data))
            }
        }
    }
}
