import DiffableDataSources
import Foundation
import Synchronization

/// The handle to a list's data source while one write runs, and only then: what a demo's
/// action, a demo's own write (``ListHandle``) and a script's write get from the list's
/// `ListWriter`. Once the write has returned, the transaction is over: its changes are
/// ignored (an apply answers `nil`), so a kept reference cannot change the list outside its
/// writer.
///
/// The names and meanings are `DiffableDataSource`'s (UIKit's). What the write applied is
/// collected in order by the list (`LiveList.takeCollected()`), and becomes events after the
/// write has returned.
public final class ListTransaction: Sendable {
    public typealias Update = DataSourceUpdate<String, String>
    private let dataSource: DiffableDataSource<String, String>
    private let open = Mutex(true)

    init(_ dataSource: DiffableDataSource<String, String>) {
        self.dataSource = dataSource
    }

    /// Ends the transaction: later applies change nothing.
    func end() { open.withLock { $0 = false } }

    /// Whether the write is still running.
    public var isOpen: Bool { open.withLock { $0 } }

    /// Runs `apply` while the write runs, else answers `nil`.
    private func whileOpen<R>(_ apply: () throws(DataSourceError) -> R) throws(DataSourceError) -> R? {
        guard isOpen else { return nil }
        return try apply()
    }

    // MARK: Reading

    public func snapshot() -> Snapshot<String, String> { dataSource.snapshot() }
    public var version: Int { dataSource.version }
    public func snapshot(for section: String) throws(DataSourceError) -> SectionSnapshot<String> { try dataSource.snapshot(for: section) }
    public func itemIdentifier(for indexPath: IndexPath) -> String? { dataSource.itemIdentifier(for: indexPath) }
    public func indexPath(for item: String) -> IndexPath? { dataSource.indexPath(for: item) }

    // MARK: Applying

    @discardableResult
    public func apply(_ snapshot: Snapshot<String, String>, animatingDifferences: Bool = true) -> Update? {
        guard isOpen else { return nil }
        return dataSource.apply(snapshot, animatingDifferences: animatingDifferences)
    }

    @discardableResult
    public func apply(_ transition: SnapshotTransition<String, String>, animatingDifferences: Bool = true) -> Update? {
        guard isOpen else { return nil }
        return dataSource.apply(transition, animatingDifferences: animatingDifferences)
    }

    @discardableResult
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot<String, String>) -> Update? {
        guard isOpen else { return nil }
        return dataSource.applySnapshotUsingReloadData(snapshot)
    }

    @discardableResult
    public func update<E: Error>(animatingDifferences: Bool = true, _ body: (inout Snapshot<String, String>) throws(E) -> Void) throws(E) -> Update? {
        guard isOpen else { return nil }
        return try dataSource.update(animatingDifferences: animatingDifferences, body)
    }

    @discardableResult
    public func update<E: Error>(ifVersion expectedVersion: Int?, animatingDifferences: Bool = true,
                                 _ body: (inout Snapshot<String, String>) throws(E) -> Void) throws(E) -> Update? {
        guard isOpen else { return nil }
        return try dataSource.update(ifVersion: expectedVersion, animatingDifferences: animatingDifferences, body)
    }

    @discardableResult
    public func apply(_ sectionSnapshot: SectionSnapshot<String>, to section: String, animatingDifferences: Bool = true) throws(DataSourceError) -> Update? {
        try whileOpen { () throws(DataSourceError) in try dataSource.apply(sectionSnapshot, to: section, animatingDifferences: animatingDifferences) }
    }

    /// Puts an outline back as it was saved (no observers, the version stays).
    @discardableResult
    public func restore(_ outline: SectionSnapshot<String>, to section: String) -> Bool {
        guard isOpen else { return false }
        return dataSource.restore(outline, to: section)
    }

    public func expand(_ item: String) throws(DataSourceError) -> Update? {
        try whileOpen { () throws(DataSourceError) in try dataSource.expand(item) } ?? nil
    }

    public func collapse(_ item: String) throws(DataSourceError) -> Update? {
        try whileOpen { () throws(DataSourceError) in try dataSource.collapse(item) } ?? nil
    }

    /// Moves `item` as a person's drag does, with the reordering handlers (refused once the
    /// write is over).
    public func reorderItem(_ item: String, to destination: IndexPath) throws(DataSourceError) -> DataSourceTransaction<String, String> {
        guard let transaction = try whileOpen({ () throws(DataSourceError) in try dataSource.reorderItem(item, to: destination) }) else {
            throw .reorderingNotAllowed(item: item)
        }
        return transaction
    }

    public var reorderingHandlers: ReorderingHandlers<String, String> {
        get { dataSource.reorderingHandlers }
        set { if isOpen { dataSource.reorderingHandlers = newValue } }
    }

    public var sectionSnapshotHandlers: SectionSnapshotHandlers<String> {
        get { dataSource.sectionSnapshotHandlers }
        set { if isOpen { dataSource.sectionSnapshotHandlers = newValue } }
    }
}
