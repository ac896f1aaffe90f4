import DiffableDataSources
import Synchronization

/// What every Mountains session shares: the catalog is immutable, so each mountain's cell
/// content is built once, and the snapshot of a query is built once for all sessions that
/// type it (snapshots are copy-on-write values: handing one out is O(1)).
///
/// Measured on 10,000 mountains: building the empty query's snapshot took ~3 ms per keystroke
/// back to an empty search box, and building a cell's content (a dictionary, a grouped
/// number) and hashing it for the render cache was a fifth of a large transition.
final class MountainSearchCache: Sendable {
    let catalog: MountainCatalog
    private let contents: [String: CellContent]
    private let snapshots = Mutex<[String: Snapshot<String, String>]>([:])
    /// Distinct queries kept; the table is cleared when full (queries are cheap to rebuild).
    let limit: Int

    init(catalog: MountainCatalog, limit: Int = 512) {
        self.catalog = catalog
        self.limit = limit
        var contents: [String: CellContent] = [:]
        contents.reserveCapacity(catalog.mountains.count)
        for mountain in catalog.mountains {
            contents[mountain.id] = CellContent(template: "cells/mountain",
                                                values: ["name": mountain.name, "height": "\(mountain.height.grouped) m"])
        }
        self.contents = contents
    }

    func cell(for item: String) -> CellContent? { contents[item] }

    /// `performQuery`'s result as a one-section snapshot.
    func snapshot(for filter: String, section: String) -> Snapshot<String, String> {
        if let cached = snapshots.withLock({ $0[filter] }) { return cached }
        var snapshot = Snapshot<String, String>()
        // Fresh identifiers by construction: a failure here would be a bug in the catalog's ids.
        try? snapshot.appendSections([section])
        try? snapshot.appendItems(catalog.filtered(by: filter).map(\.id))
        snapshots.withLock { table in
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[filter] = snapshot
        }
        return snapshot
    }
}
