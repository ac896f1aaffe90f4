import DiffableDataSources

/// A list whose items are a function of its state (the Mountains list is its query): an
/// action changes only the state, and the framework applies the items that state derives.
///
/// What that buys:
/// - **Shared work.** Every session in the same state has the same items, so each state's
///   snapshot, and the step between two states with its diff, is computed once for all of
///   them (kept in ``SharedCache``s the server empties first when memory is short).
/// - **Small saves.** The list is saved as its state, not as identifiers and changes, and a
///   restart derives it again.
/// - **Previews.** A page URL's query (``pageQuery``: `/demos/mountains?q=ben`) shows the
///   list its action would derive, without writing anything.
///
/// A script may still edit the items directly (`PUT …/snapshot`, operations): the list is
/// then an ordinary list, saved as items, until the next action derives it again;
/// ``didEditList()`` lets the state say so.
public protocol DerivedList: WebList, Hashable {
    /// The items of this state.
    func derivedSnapshot() -> Snapshot<SectionID, ItemID>

    /// A script edited the items: change the state to say it no longer describes them (the
    /// Mountains status stops quoting a query). Default: nothing.
    mutating func didEditList()

    /// The page URL query parameter that stands for an action's parameter, previewed on a GET
    /// (the no-JavaScript search form submits by GET). Default: none.
    static var pageQuery: PageQuery? { get }
}

extension DerivedList {
    public func initialSnapshot() throws -> Snapshot<SectionID, ItemID> { derivedSnapshot() }
    public mutating func didEditList() {}
    public static var pageQuery: PageQuery? { nil }
}

/// A ``DerivedList``'s shared snapshots, as the adapter of a list type `List` calls them
/// (typed: no existential box and no cast on a keystroke).
struct DerivedOperations<List: WebList>: Sendable {
    /// The wire snapshot a state derives.
    let snapshot: @Sendable (List) -> Snapshot<String, String>
    /// The step from one state's items to another's, diffed once for every session, or `nil`
    /// when `current` is not the first state's items (a script edited them).
    let transition: @Sendable (_ old: List, _ new: List, _ current: Snapshot<String, String>) -> SnapshotTransition<String, String>?
    /// Whether two states are the same state (they derive the same items).
    let same: @Sendable (List, List) -> Bool
    /// The list's ``DerivedList/pageQuery``.
    let pageQuery: PageQuery?
}

final class DerivedSnapshots<List: DerivedList>: Sendable {
    private struct Step: Hashable, Sendable {
        var from: List
        var to: List
    }
    /// Results kept: roughly 80 bytes an item, 64 items on average.
    private let snapshots: SharedCache<List, Snapshot<String, String>>
    /// Steps kept, weighed by their changes (about 40 bytes each) plus ``stepWeight``.
    private let transitions: SharedCache<Step, SnapshotTransition<String, String>>
    /// Distinct states whose items are kept, and steps kept, at most.
    let resultLimit: Int
    let stepLimit: Int

    /// Bounded: a flood of unique states (a script, or 1,000 people typing queries nobody else
    /// types) passes through, while the results and steps many sessions share stay. A step
    /// weighs its changes plus ``stepWeight``, so a step between two empty results is not free
    /// (before it was weighed, 90,000 unique no-match searches grew the server by 92 MB).
    init(resultLimit: Int = 512, stepLimit: Int = 4_096, stepBudget: Int = 500_000) {
        self.resultLimit = resultLimit
        self.stepLimit = stepLimit
        snapshots = SharedCache(entryLimit: resultLimit, bytesPerEntry: 80 * 64)
        transitions = SharedCache(entryLimit: stepLimit, weightLimit: stepBudget, bytesPerEntry: 0, bytesPerWeight: 40)
    }
    /// What a step costs besides its changes, in changes: its two states, the transition, and
    /// the two snapshots it keeps alive (about 1 KB for empty results).
    static var stepWeight: Int { 32 }

    /// The queries whose results are kept, and the steps kept (for tests).
    var keptResults: Int { snapshots.count }
    var keptSteps: Int { transitions.count }

    func snapshot(of state: List) -> Snapshot<String, String> {
        snapshots.value(for: state) { state in
            // A derived snapshot that repeats an identifier is a bug of the list: it shows empty.
            (try? WireIdentifiers.wire(state.derivedSnapshot())) ?? Snapshot()
        }
    }

    func transition(from old: List, to new: List, current: Snapshot<String, String>) -> SnapshotTransition<String, String>? {
        let step = Step(from: old, to: new)
        if let known = transitions.value(for: step), current.isIdentical(to: known.from) { return known }
        // Not the step from `current`: made before `old`'s items were derived again (dropped
        // from the table of results), or `current` is not `old`'s items at all.
        let from = snapshot(of: old)
        guard current.isIdentical(to: from) else { return nil }
        let transition = SnapshotTransition(from: from, to: snapshot(of: new))
        transitions.insert(transition, for: step, weight: transition.changeCount + Self.stepWeight)
        return transition
    }
}
