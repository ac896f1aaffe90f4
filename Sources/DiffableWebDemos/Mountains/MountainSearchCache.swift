import DiffableDataSources
import DiffableWeb

/// What every Mountains session shares: the catalog is immutable, so each mountain's cell
/// content is built once, and the snapshot of a query is built once for all sessions that
/// type it (snapshots are copy-on-write values: handing one out is O(1)).
///
/// The step from one query's results to the next is shared the same way: every session that
/// types `kan` after `ka` makes the same transition, so its diff is computed once
/// (``SnapshotTransition``), and so is what the web layer derives from it (the event's
/// identifiers, written and compressed once).
///
/// Measured on 10,000 mountains: building the empty query's snapshot took ~3 ms per keystroke
/// back to an empty search box, and building a cell's content (a dictionary, a grouped
/// number) and hashing it for the render cache was a fifth of a large transition. The diff of
/// 10,000 ids was about 12% of a keystroke's server CPU with 1,000 sessions typing.
///
/// # Bounded
/// Both tables keep what was used lately (``SharedCache``, which the server empties first when memory is short): a flood of unique queries (a
/// script, or 1,000 people typing names nobody else types) passes through them, while the
/// steps and results many sessions share stay. Results are bounded by count; steps by count
/// and by weight, where a step weighs its changes (inserted, deleted, moved ids) plus a fixed
/// cost for its keys and the two result snapshots it keeps alive, so a step between two empty
/// results is not free. (Before, such a step weighed nothing: 90,000 unique no-match searches
/// grew the server by 92 MB.)
final class MountainSearchCache: Sendable {
    let catalog: MountainCatalog
    private let contents: [String: CellContent]
    /// Results kept: roughly 80 bytes an item, 64 items on average.
    private let snapshots: SharedCache<String, Snapshot<String, String>>
    /// Distinct queries whose results are kept.
    let limit: Int

    private struct Step: Hashable, Sendable { var from: String; var to: String }
    /// Steps kept: 40 bytes a change.
    private let transitions: SharedCache<Step, SnapshotTransition<String, String>>
    /// Steps kept at most.
    let stepLimit: Int
    /// The weight of the steps kept: their changes (about 40 bytes each), plus ``stepWeight``
    /// per step (20 MB at most).
    let transitionBudget: Int
    /// What a step costs besides its changes, in changes: its two query strings, the
    /// transition, and the two snapshots it keeps alive (about 1 KB for empty results).
    static let stepWeight = 32

    init(catalog: MountainCatalog, limit: Int = 512, stepLimit: Int = 4_096, transitionBudget: Int = 500_000) {
        self.catalog = catalog
        self.limit = limit
        self.stepLimit = stepLimit
        self.transitionBudget = transitionBudget
        snapshots = SharedCache(entryLimit: limit, bytesPerEntry: 80 * 64)
        transitions = SharedCache(entryLimit: stepLimit, weightLimit: transitionBudget, bytesPerEntry: 0, bytesPerWeight: 40)
        var contents: [String: CellContent] = [:]
        contents.reserveCapacity(catalog.mountains.count)
        for mountain in catalog.mountains {
            contents[mountain.id] = CellContent(template: "cells/mountain",
                                                values: ["name": mountain.name, "height": "\(mountain.height.grouped) m"])
        }
        self.contents = contents
    }

    /// The queries whose results are kept, and the steps kept (for tests).
    var keptResults: Int { snapshots.count }
    var keptSteps: Int { transitions.count }

    func cell(for item: String) -> CellContent? { contents[item] }

    /// `performQuery`'s result as a one-section snapshot.
    func snapshot(for filter: String, section: String) -> Snapshot<String, String> {
        snapshots.value(for: filter) { filter in
            var snapshot = Snapshot<String, String>()
            // Fresh identifiers by construction: a failure here would be a bug in the catalog's ids.
            try? snapshot.appendSections([section])
            try? snapshot.appendItems(catalog.filtered(by: filter).map(\.id))
            return snapshot
        }
    }

    /// The step from query `old`'s results to query `new`'s, diffed once for every session, or
    /// `nil` when `current` (the caller's snapshot) is not `old`'s results (an API call changed
    /// the list): then nothing is diffed here, and the caller's apply diffs its own snapshot.
    func transition(from old: String, to new: String, section: String, current: Snapshot<String, String>)
        -> SnapshotTransition<String, String>? {
        let step = Step(from: old, to: new)
        if let known = transitions.value(for: step), current.isIdentical(to: known.from) { return known }
        // Not the step from `current`: made before the query's results were built again (they
        // were dropped from the table of results), or `current` is not `old`'s results at all.
        let from = snapshot(for: old, section: section)
        guard current.isIdentical(to: from) else { return nil }
        let transition = SnapshotTransition(from: from, to: snapshot(for: new, section: section))
        transitions.insert(transition, for: step, weight: transition.changeCount + Self.stepWeight)
        return transition
    }
}
