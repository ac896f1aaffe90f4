import Logging
import Synchronization

// Saving: what the changes since the last save add to the store (with the checkpoint
// policy), deferred saves of view-only changes, and retiring a list whose save failed.
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

    /// Saves a view-only change within ``viewOnlySaveDelay`` (the newest of a burst together).
    func scheduleDeferredSave() {
        let schedule = pending.withLock { pending -> Bool in
            defer { pending.saveScheduled = true }
            return !pending.saveScheduled && !pending.changes.isEmpty
        }
        guard schedule else { return }
        // Holds the list until it is saved: a list is made again from the store only once no
        // copy of it is alive (``LiveListTable``), so nothing it was told is lost.
        Task {
            try? await Task.sleep(for: Self.viewOnlySaveDelay)
            await self.flushPendingSave()
        }
    }

    /// Writes deferred changes now (through the writer, so in order with every other save).
    func flushPendingSave() async {
        _ = try? await writer.run {
            let pendingChanges = self.pending.withLock { pending in
                pending.saveScheduled = false
                return !pending.changes.isEmpty
            }
            guard pendingChanges, let storage = self.storage, !self.isRetired, let write = self.takePendingWrite() else { return }
            do {
                try await storage.store.enqueue(storage.key, write).wait()
            } catch {
                self.retire(because: "\(error)", storage: storage)
            }
        }
    }
}
