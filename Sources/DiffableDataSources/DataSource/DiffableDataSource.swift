#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Holds the current snapshot of a list and turns every new snapshot into a changeset.
///
/// `DiffableDataSource` re-creates UIKit's `UICollectionViewDiffableDataSource` without the
/// view: it knows nothing of how changes are shown. Observers receive one
/// ``DataSourceUpdate`` per apply, in order, and show it however they like (the web layer
/// renders HTML and streams it to browsers).
///
/// ```swift
/// let dataSource = DiffableDataSource<Section, Mountain.ID>()
/// dataSource.addObserver { update in render(update.changeset) }
/// var snapshot = Snapshot<Section, Mountain.ID>()
/// try snapshot.appendSections([.main])
/// try snapshot.appendItems(filtered.map(\.id))
/// dataSource.apply(snapshot, animatingDifferences: true)
/// ```
///
/// # Concurrency
/// Safe from any thread or task. Applies are serialized: each computes its changeset against
/// the snapshot the previous apply left, and observers are called in version order, on the
/// applying thread, before `apply` returns. Readers (``snapshot()``, ``itemIdentifier(for:)``…)
/// never see a half-applied snapshot. An observer may read the data source but must not apply
/// to it synchronously (that would wait for itself); hand such work to a task.
///
/// # Limits
/// An owner may set a rule that every applied snapshot must keep (``admission``): an apply
/// that breaks it changes nothing, and ``takeRefusal()`` says why.
///
/// # Speed
/// The methods a live list calls on every write (``snapshot()``, ``versionedSnapshot()``, the
/// `apply`s of a snapshot and of a transition) are also compiled for `String` identifiers
/// (`@_specialize(exported:)`): a caller in another module with those types calls that copy,
/// not the generic body that looks up its types' metadata on each call (half the metadata
/// lookups of a keystroke).
public final class DiffableDataSource<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable {
    public typealias Update = DataSourceUpdate<SectionID, ItemID>
    public typealias Observer = @Sendable (Update) -> Void

    struct State: Sendable {
        var snapshot = Snapshot<SectionID, ItemID>()
        var version = 0
        var sectionSnapshots: [SectionID: SectionSnapshot<ItemID>] = [:]
        var reorderingHandlers = ReorderingHandlers<SectionID, ItemID>()
        var sectionSnapshotHandlers = SectionSnapshotHandlers<ItemID>()
        var observers: [(id: Int, observe: Observer)] = []
        var nextObserverID = 0
        /// The rule every new snapshot must keep (see ``admission``), and why the last apply
        /// it refused was refused, until ``takeRefusal()``.
        var admission: Admission?
        var refusal: (any Error)?
    }

    let state = Mutex(State())
    /// Serializes applies, so observers see versions in order.
    let applyGate = Mutex(())
    /// The diff, created in the caller's module by the inlinable ``init()`` so that it runs
    /// specialized for the concrete identifier types: called from this module's generic code
    /// it would pay for generic metadata on every lookup (3–4× slower at 1,000 items).
    @usableFromInline let diff: @Sendable (Snapshot<SectionID, ItemID>, Snapshot<SectionID, ItemID>) -> Changeset<SectionID, ItemID>

    /// A data source showing an empty snapshot (version 0).
    @inlinable public convenience init() {
        self.init(diff: { Changeset(from: $0, to: $1) })
    }

    @usableFromInline init(diff: @escaping @Sendable (Snapshot<SectionID, ItemID>, Snapshot<SectionID, ItemID>) -> Changeset<SectionID, ItemID>) {
        self.diff = diff
    }

    // MARK: Observing

    /// Registers an observer for every future apply; returns a token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observe: @escaping Observer) -> Int {
        state.withLock { state in
            state.nextObserverID += 1
            state.observers.append((state.nextObserverID, observe))
            return state.nextObserverID
        }
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: Int) {
        state.withLock { $0.observers.removeAll { $0.id == token } }
    }

    // MARK: Reading

    /// A copy of the current snapshot. - Complexity: O(1) (copy on write).
    @_specialize(exported: true, where SectionID == String, ItemID == String)
    public func snapshot() -> Snapshot<SectionID, ItemID> { state.withLock { $0.snapshot } }

    /// The current snapshot and its version, read together.
    @_specialize(exported: true, where SectionID == String, ItemID == String)
    public func versionedSnapshot() -> (version: Int, snapshot: Snapshot<SectionID, ItemID>) {
        state.withLock { ($0.version, $0.snapshot) }
    }

    /// The version of the current snapshot: 0 before the first apply, then one more per apply.
    public var version: Int { state.withLock { $0.version } }

    /// The item at an index path, or `nil`.
    public func itemIdentifier(for indexPath: IndexPath) -> ItemID? {
        state.withLock { $0.snapshot.itemIdentifier(at: indexPath) }
    }

    /// An item's index path, or `nil`.
    public func indexPath(for itemIdentifier: ItemID) -> IndexPath? {
        state.withLock { $0.snapshot.indexPath(ofItem: itemIdentifier) }
    }

    /// The section at an index, or `nil`.
    public func sectionIdentifier(for index: Int) -> SectionID? {
        state.withLock { state in
            index >= 0 && index < state.snapshot.numberOfSections ? state.snapshot.sections.keys[index] : nil
        }
    }

    /// A section's index, or `nil`.
    public func index(for sectionIdentifier: SectionID) -> Int? {
        state.withLock { $0.snapshot.indexOfSection(sectionIdentifier) }
    }

    // MARK: Handlers

    /// Hooks for user reordering; reordering is refused until `canReorderItem` is set.
    public var reorderingHandlers: ReorderingHandlers<SectionID, ItemID> {
        get { state.withLock { $0.reorderingHandlers } }
        set { state.withLock { $0.reorderingHandlers = newValue } }
    }

    /// Hooks for expanding and collapsing outline items.
    public var sectionSnapshotHandlers: SectionSnapshotHandlers<ItemID> {
        get { state.withLock { $0.sectionSnapshotHandlers } }
        set { state.withLock { $0.sectionSnapshotHandlers = newValue } }
    }

    // MARK: Applying

    /// Makes `snapshot` current and tells observers what changed.
    /// - Returns: the update observers received.
    /// - Complexity: the diff's: expected O(n).
    @discardableResult
    @_specialize(exported: true, where SectionID == String, ItemID == String)
    public func apply(_ snapshot: Snapshot<SectionID, ItemID>, animatingDifferences: Bool = true) -> Update {
        applyGate.withLock { _ in commit(snapshot, animating: animatingDifferences, kind: .differences) }
    }

    /// Makes `transition.to` current. When the current snapshot is `transition.from` (see
    /// ``SnapshotTransition``) observers get the transition's changeset and nothing is diffed;
    /// otherwise this is `apply(transition.to, animatingDifferences:)`.
    /// - Returns: the update observers received (its ``DataSourceUpdate/transition`` says
    ///   whether the shortcut was taken).
    /// - Complexity: O(sections) with the shortcut; the diff's otherwise.
    @discardableResult
    @_specialize(exported: true, where SectionID == String, ItemID == String)
    public func apply(_ transition: SnapshotTransition<SectionID, ItemID>, animatingDifferences: Bool = true) -> Update {
        applyGate.withLock { _ in commit(transition.to, animating: animatingDifferences, kind: .differences, transition: transition) }
    }

    /// Makes `snapshot` current without animation; observers are told to show it afresh.
    @discardableResult
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot<SectionID, ItemID>) -> Update {
        applyGate.withLock { _ in commit(snapshot, animating: false, kind: .reloadData) }
    }

    /// Makes `snapshot` current only if the current version is still `expectedVersion`:
    /// a compare-and-swap for callers that read, changed and now write back.
    /// - Returns: the update, or `nil` (and nothing applied) when another apply came first.
    @discardableResult
    public func apply(_ snapshot: Snapshot<SectionID, ItemID>, ifVersion expectedVersion: Int, animatingDifferences: Bool = true) -> Update? {
        applyGate.withLock { _ in
            guard state.withLock({ $0.version }) == expectedVersion else { return nil }
            return commit(snapshot, animating: animatingDifferences, kind: .differences)
        }
    }

    /// Makes `snapshot` current as version `version`, the way another copy of this data source
    /// made it (a replica catching up: several applies elsewhere arrive as one). Observers get
    /// the changeset from the current snapshot, as for ``apply(_:animatingDifferences:)-(Snapshot<SectionID,ItemID>,_)``.
    /// - Returns: the update, or `nil` (nothing applied) when `version` is not newer than the
    ///   current version.
    @discardableResult
    public func apply(_ snapshot: Snapshot<SectionID, ItemID>, asVersion version: Int, animatingDifferences: Bool = true) -> Update? {
        applyGate.withLock { _ in
            guard version > state.withLock({ $0.version }) else { return nil }
            return commit(snapshot, animating: animatingDifferences, kind: .differences, version: version)
        }
    }

    /// Reads the current snapshot, lets `body` change a copy, and applies it, all without
    /// another apply slipping in between. If `body` throws, nothing is applied.
    @discardableResult
    public func update<E: Error>(animatingDifferences: Bool = true, _ body: (inout Snapshot<SectionID, ItemID>) throws(E) -> Void) throws(E) -> Update {
        try applyGate.withLock { _ throws(E) -> Update in
            var snapshot = state.withLock { $0.snapshot }
            try body(&snapshot)
            return commit(snapshot, animating: animatingDifferences, kind: .differences)
        }
    }

    /// ``update(animatingDifferences:_:)`` as a compare-and-swap: `body` runs, and its change is
    /// applied, only while the current version is `expectedVersion` (always, when it is `nil`).
    /// - Returns: the update, or `nil` (nothing run, nothing applied) when the version moved on.
    @discardableResult
    public func update<E: Error>(ifVersion expectedVersion: Int?, animatingDifferences: Bool = true,
                                 _ body: (inout Snapshot<SectionID, ItemID>) throws(E) -> Void) throws(E) -> Update? {
        try applyGate.withLock { _ throws(E) -> Update? in
            var (version, snapshot) = state.withLock { ($0.version, $0.snapshot) }
            if let expectedVersion, version != expectedVersion { return nil }
            try body(&snapshot)
            return commit(snapshot, animating: animatingDifferences, kind: .differences)
        }
    }

    // MARK: Section snapshots

    /// Replaces one section's items with an outline's visible items (appending the section if
    /// it is new) and remembers the outline for ``snapshot(for:)`` and expand/collapse.
    /// - Throws: ``DataSourceError/snapshot(_:)`` when a visible item is already in another section.
    @discardableResult
    public func apply(_ sectionSnapshot: SectionSnapshot<ItemID>, to section: SectionID, animatingDifferences: Bool = true) throws(DataSourceError) -> Update {
        try applyGate.withLock { _ throws(DataSourceError) -> Update in
            try commitSectionSnapshot(sectionSnapshot, to: section, animating: animatingDifferences)
        }
    }

    /// The outline last applied to a section, or a flat one made of the section's items.
    /// - Throws: ``DataSourceError/snapshot(_:)`` for an unknown section.
    public func snapshot(for section: SectionID) throws(DataSourceError) -> SectionSnapshot<ItemID> {
        let (stored, items) = state.withLock { ($0.sectionSnapshots[section], try? $0.snapshot.itemIdentifiers(inSection: section)) }
        if let stored { return stored }
        guard let items else { throw .snapshot(.unknownSections(of: [section])) }
        var flat = SectionSnapshot<ItemID>()
        do { try flat.append(items) } catch { throw .snapshot(error) }
        return flat
    }

    // MARK: Internals (call with applyGate held)

    @discardableResult
    func commit(_ snapshot: Snapshot<SectionID, ItemID>, animating: Bool, kind: Update.Kind,
                sectionSnapshot: (SectionID, SectionSnapshot<ItemID>)? = nil, version: Int? = nil,
                transition: SnapshotTransition<SectionID, ItemID>? = nil) -> Update {
        let (previous, previousVersion, admission, refused) = state.withLock { ($0.snapshot, $0.version, $0.admission, $0.refusal != nil) }
        // A copy of another data source's apply (`version` given) was admitted there.
        if version == nil, let admission {
            let refusal = refused ? nil : admission(snapshot)
            if refused || refusal != nil {
                if let refusal { state.withLock { $0.refusal = refusal } }
                return Update(version: previousVersion, previousSnapshot: previous, snapshot: previous, changeset: Changeset(),
                              animatingDifferences: animating, kind: kind, transition: nil)
            }
        }
        let shortcut = transition.flatMap { previous.isIdentical(to: $0.from) ? $0 : nil }
        let changeset = shortcut?.changeset ?? diff(previous, snapshot)
        // Stamped: a snapshot later derived from it by item mutations gets its changeset from them.
        let current = snapshot.clearingMarks().stampedForJournal()
        let update = Update(version: version ?? previousVersion + 1, previousSnapshot: previous, snapshot: current,
                            changeset: changeset, animatingDifferences: animating, kind: kind, transition: shortcut)
        let observers = state.withLock { state in
            state.snapshot = current
            state.version = update.version
            if let (section, outline) = sectionSnapshot { state.sectionSnapshots[section] = outline }
            // An outline stays valid only while its visible items are exactly the section's items.
            state.sectionSnapshots = state.sectionSnapshots.filter { section, outline in
                (try? current.itemIdentifiers(inSection: section)) == outline.visibleItems
            }
            return state.observers.map { $0.observe }  // a closure: a key path in this generic class is instantiated on every call
        }
        for observe in observers { observe(update) }
        return update
    }

    /// Makes `snapshot` current at `version` without an update: a data source brought back from
    /// storage (a restarted server's list) continues its versions instead of starting at 1.
    /// Observers are not called; outlines and handlers are left as they are.
    /// - Precondition: `version` ≥ 0.
    public func restore(_ snapshot: Snapshot<SectionID, ItemID>, version: Int) {
        applyGate.withLock { _ in
            let current = snapshot.clearingMarks().stampedForJournal()
            state.withLock { state in
                state.snapshot = current
                state.version = max(0, version)
                state.sectionSnapshots = [:]
            }
        }
    }

    /// Remembers `outline` as `section`'s outline without an update, when the section shows
    /// exactly its visible items already (a data source brought back from storage: the items
    /// were restored, the tree is given back). Observers are not called; the version stays.
    /// - Returns: whether it was remembered (`false`: the section is unknown or shows other items).
    @discardableResult
    public func restore(_ outline: SectionSnapshot<ItemID>, to section: SectionID) -> Bool {
        applyGate.withLock { _ in
            state.withLock { state in
                guard let items = try? state.snapshot.itemIdentifiers(inSection: section), items == outline.visibleItems else { return false }
                state.sectionSnapshots[section] = outline
                return true
            }
        }
    }

    func commitSectionSnapshot(_ outline: SectionSnapshot<ItemID>, to section: SectionID, animating: Bool) throws(DataSourceError) -> Update {
        var snapshot = state.withLock { $0.snapshot }
        do {
            if snapshot.contains(section: section) {
                try snapshot.deleteItems(snapshot.itemIdentifiers(inSection: section))
            } else {
                try snapshot.appendSections([section])
            }
            try snapshot.appendItems(outline.visibleItems, toSection: section)
        } catch {
            throw .snapshot(error)
        }
        return commit(snapshot, animating: animating, kind: .differences, sectionSnapshot: (section, outline))
    }
}
