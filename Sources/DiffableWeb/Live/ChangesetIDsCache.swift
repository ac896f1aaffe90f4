import DiffableDataSources
import MicroHTTP
import Synchronization

/// The identifiers part of changeset events (`"deleted"`, `"inserted"`, `"moved"`), written
/// once per shared ``SnapshotTransition`` for every list that makes it.
///
/// A data source that applied a shared transition hands its observers the transition object
/// itself (`DataSourceUpdate.transition`): every session typing `kan` after `ka` gets the same
/// one, so the identifiers of its changeset (up to 100 KB for a search that brings back every
/// mountain), and their deflated form for gzip streams, are made once for all of them.
final class ChangesetIDsCache: Sendable {
    static let shared = ChangesetIDsCache()

    private struct Entry: Sendable {
        /// Kept alive so that its identifier is not reused while the entry exists.
        let transition: SnapshotTransition<String, String>
        let bytes: SharedEventBytes
    }
    private struct Table: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var weight = 0
    }
    private let table = Mutex(Table())
    /// Bytes the kept entries may add up to (deflated forms included, about 1.4 times); the
    /// table is cleared when they pass it.
    let budget: Int

    init(budget: Int = 32 << 20) { self.budget = budget }

    /// The identifiers written for `transition`, by `write` the first time.
    func bytes(for transition: SnapshotTransition<String, String>, write: () -> SharedEventBytes) -> SharedEventBytes {
        let key = ObjectIdentifier(transition)
        if let known = table.withLock({ $0.entries[key] }), known.transition === transition { return known.bytes }
        let bytes = write()
        table.withLock { table in
            let weight = bytes.count * 14 / 10
            if table.weight + weight > budget {
                table.entries.removeAll(keepingCapacity: true)
                table.weight = 0
            }
            if table.entries.updateValue(Entry(transition: transition, bytes: bytes), forKey: key) == nil { table.weight += weight }
        }
        return bytes
    }
}
