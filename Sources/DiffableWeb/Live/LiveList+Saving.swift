import Logging
import Synchronization

// Saving: what the changes since the last save add to the store (with the checkpoint
// policy), and retiring a list whose save failed.
extension LiveList {
    func retire(because reason: String, storage: ListStorage) {
        retired.store(true, ordering: .releasing)
        pending.withLock { $0 = PendingWrites() }
        outbox.withLock { $0.entries.removeAll() }
        storage.logger.error("a list could not be saved and is retired", metadata: ["list": "\(storage.key)", "error": "\(reason)"])
        storage.retired(self)
        closeStreams()
    }

    /// Where this writer stands, for the store.
    var position: ListPosition { ListPosition(version: dataSource.version, epoch: epoch.value) }

    /// What the changes since the last save add to the store (`nil`: nothing).
    func takePendingWrite() -> ListWrite? {
        let snapshot = dataSource.snapshot()
        // A checkpoint once the changes since the last one add up to the list's own size: its
        // cost is spread over them, and a restore applies at most about that much.
        let threshold = max(4096, snapshot.numberOfItems * 12)
        let taken = pending.withLock { pending -> (changes: [StoredChange], checkpoint: Bool)? in
            guard !pending.changes.isEmpty else { return nil }
            let checkpoint = pending.checkpointDue || pending.bytesSinceCheckpoint >= threshold
            if checkpoint { pending.bytesSinceCheckpoint = 0 }
            defer {
                pending.changes.removeAll()
                pending.checkpointDue = false
            }
            return (pending.changes, checkpoint)
        }
        guard let taken, let last = taken.changes.last else { return nil }
        let state = demo.persistentState()
        let stateChanged = pending.withLock { pending in
            defer { pending.savedState = state }
            return pending.savedState != state
        }
        return ListWrite(version: last.version, epoch: epoch.value, changes: taken.changes, state: state, stateChanged: stateChanged,
                         checkpoint: taken.checkpoint ? StoredList.sections(of: snapshot) : nil)
    }
}
