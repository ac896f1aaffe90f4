import DiffableDataSources
import Logging
import Synchronization

/// What a list's saves so far left behind: the checkpoint policy's count, and what the last
/// save kept of the demo's state (a hash, not a copy: the demo's state is kept once, by the demo).
struct SaveState: Sendable {
    /// Changeset bytes saved since the last checkpoint.
    var bytesSinceCheckpoint = 0
    /// A change that is not a diff (a reload) was made: the next save carries a checkpoint.
    var checkpointDue = false
    /// The hash of the demo state last saved (`nil`: unknown, save it).
    var stateHash: Int?
    /// Whether the list was last saved as derived (its identifiers are not in the store: an
    /// ordinary save must carry a checkpoint).
    var derived = false

    mutating func saved(state: [String: String], derived: Bool) {
        stateHash = Self.hash(state)
        self.derived = derived
    }

    static func hash(_ state: [String: String]) -> Int {
        var hasher = Hasher()
        for key in state.keys.sorted() {
            hasher.combine(key)
            hasher.combine(state[key])
        }
        return hasher.finalize()
    }
}

// Saving: what a write adds to the store (with the checkpoint policy), and retiring a list
// whose save failed.
extension LiveList {
    func retire(because reason: String, storage: ListStorage) {
        state.withLock { $0.retired = true }
        outbox.removeAll()
        storage.logger.error("a list could not be saved and is retired", metadata: ["list": "\(storage.key)", "error": "\(reason)"])
        storage.retired(self)
        closeStreams()
    }

    /// Where this writer stands, for the store.
    var position: ListPosition { ListPosition(version: dataSource.version, epoch: epoch.value) }

    /// What a write adds to the store (`nil`: nothing): the derived list's state, or the
    /// write's changes, with a checkpoint once the changes since the last one add up to the
    /// list's own size (its cost is spread over them, and a restore applies at most about that
    /// much), after a reload, or when the list was saved as derived.
    func storedWrite(of publication: Publication) -> ListWrite? {
        guard storage != nil, publication.changedList else { return nil }
        let state = demo.persistentState()
        if publication.derived {
            saving.withLock { $0.saved(state: state, derived: true) }
            return .derived(version: publication.version, epoch: epoch.value, state: state)
        }
        guard let last = publication.stored.last else { return nil }
        let snapshot = dataSource.snapshot()
        let threshold = max(4096, snapshot.numberOfItems * 12)
        let (checkpoint, stateChanged) = saving.withLock { saving -> (Bool, Bool) in
            saving.bytesSinceCheckpoint += publication.storedBytes
            let checkpoint = saving.derived || saving.checkpointDue || publication.checkpointDue || saving.bytesSinceCheckpoint >= threshold
            if checkpoint { saving.bytesSinceCheckpoint = 0 }
            saving.checkpointDue = false
            let hash = SaveState.hash(state)
            defer { saving.stateHash = hash; saving.derived = false }
            return (checkpoint, saving.stateHash != hash)
        }
        return ListWrite(version: last.version, epoch: epoch.value, changes: publication.stored, state: state, stateChanged: stateChanged,
                         checkpoint: checkpoint ? StoredList.sections(of: snapshot) : nil)
    }
}
