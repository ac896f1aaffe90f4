import DiffableDataSources
import MicroHTTP
import Synchronization

/// What the web layer derives from a shared ``SnapshotTransition``, made once for every list
/// that makes the transition: the identifiers part of its changeset event (`"deleted"`,
/// `"inserted"`, `"moved"`), the changeset as a store saves it, and each window's part (the
/// cells that entered with their HTML, the moves, what the client holds afterwards) per
/// viewport and held cells.
///
/// A data source that applied a shared transition hands its observers the transition object
/// itself (`DataSourceUpdate.transition`): every session typing `kan` after `ka` gets the same
/// one. The identifiers depend on the changeset alone. A window depends on the new snapshot's
/// layout for the viewport, on what the client held, and on the cells' HTML: so windows are
/// shared only for demos whose cells are the same in every session (``Demo/sharesCellContent``)
/// and lists without headers or footers (whose HTML is per list).
final class TransitionCache: Sendable {
    static let shared = TransitionCache()

    /// A stream's part of a changeset (written once, shared by the streams that get it), and
    /// what its client holds afterwards.
    struct Window: Sendable {
        var tail: SharedEventBytes
        var held: [String: WireFrame]
        var signature: Int
    }

    /// Streams with the same viewport and the same held cells get the same window.
    struct WindowKey: Hashable, Sendable {
        var window: StreamWindow
        var signature: Int
        /// The signature of the measurements the window was laid out with: lists whose browsers
        /// measured the same sizes lay out alike.
        var measured = 0
    }

    private struct Entry: Sendable {
        /// Kept alive so that its identifier is not reused while the entry exists.
        let transition: SnapshotTransition<String, String>
        var ids: SharedEventBytes?
        var storedChangeset: String?
        var windows: [WindowKey: Window] = [:]
    }
    private struct Table: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var weight = 0
    }
    private let table = Mutex(Table())
    /// Bytes the kept entries may add up to, roughly (identifiers with their deflated form,
    /// windows with their held cells, ``entryWeight`` per entry); the table is cleared when
    /// they pass it, or when it holds ``entryLimit`` entries.
    let budget: Int
    let entryLimit: Int
    /// What an entry costs besides what it holds: the entry, and the transition it keeps alive
    /// with its two snapshots. Without it, a step between two empty results (unique no-match
    /// searches) weighed a few dozen bytes and the table grew by about 1 KB per search.
    static let entryWeight = 2_048

    init(budget: Int = 48 << 20, entryLimit: Int = 8_192) {
        self.budget = budget
        self.entryLimit = entryLimit
        DroppableCaches.shared.add(self)
    }

    /// The entries kept (for tests).
    var count: Int { table.withLock { $0.entries.count } }

    /// The identifiers written for `transition`, by `write` the first time.
    func ids(for transition: SnapshotTransition<String, String>, write: () -> SharedEventBytes) -> SharedEventBytes {
        value(of: transition, get: { $0.ids }, set: { $0.ids = $1 }, weight: { $0.count * 14 / 10 }, make: write)
    }

    /// The changeset as a store saves it (`StoredChangeset`), encoded by `encode` the first time.
    func storedChangeset(for transition: SnapshotTransition<String, String>, encode: () -> String) -> String {
        value(of: transition, get: { $0.storedChangeset }, set: { $0.storedChangeset = $1 }, weight: { $0.utf8.count }, make: encode)
    }

    /// The window `key` after `transition`, made by `make` the first time.
    func window(for transition: SnapshotTransition<String, String>, _ key: WindowKey, make: () -> Window) -> Window {
        value(of: transition, get: { $0.windows[key] }, set: { $0.windows[key] = $1 }, weight: { $0.tail.count + $0.held.count * 64 },
              make: make)
    }

    /// What `transition`'s entry holds (`get`), or what `make` makes, kept there (`set`; the
    /// table is cleared first when its weight would pass the budget, or a new entry the entry
    /// limit). Closures, not a key path: `\.windows[key]` was a key path made afresh on every
    /// call (its subscript argument), 4% of a plain keystroke's server time in perf.
    private func value<T: Sendable>(of transition: SnapshotTransition<String, String>, get: (Entry) -> T?, set: (inout Entry, T) -> Void,
                                    weight: (T) -> Int, make: () -> T) -> T {
        let key = ObjectIdentifier(transition)
        let known = table.withLock { table in
            table.entries[key].flatMap { $0.transition === transition ? get($0) : nil }
        }
        if let known { return known }
        let made = make()
        table.withLock { table in
            var entry = table.entries[key].flatMap { $0.transition === transition ? $0 : nil }
            var added = weight(made) + (entry == nil ? Self.entryWeight : 0)
            if table.weight + added > budget || (entry == nil && table.entries.count >= entryLimit) {
                table.entries.removeAll(keepingCapacity: true)
                table.weight = 0
                if entry != nil {
                    entry = nil
                    added += Self.entryWeight
                }
            }
            var kept = entry ?? Entry(transition: transition)
            set(&kept, made)
            table.entries[key] = kept
            table.weight += added
        }
        return made
    }
}

extension TransitionCache: DroppableCache {
    func dropAll() -> Int {
        table.withLock { table in
            defer { table = Table() }
            return table.weight
        }
    }

    var heldBytes: Int { table.withLock { $0.weight } }
}
