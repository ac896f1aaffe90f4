import Testing
import Synchronization
@testable import DiffableDataSources

@Suite("DiffableDataSource: admission")
struct DataSourceAdmissionTests {
    struct TooLarge: Error, Equatable { var items: Int }

    /// The versions an observer was told of.
    final class Seen: Sendable {
        let versions = Mutex<[Int]>([])
        var all: [Int] { versions.withLock { $0 } }
    }

    /// A data source that refuses more than `limit` items, with the updates its observer saw.
    func make(limit: Int) throws -> (DiffableDataSource<String, Int>, Seen) {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1, 2]]))
        let seen = Seen()
        dataSource.addObserver { update in seen.versions.withLock { $0.append(update.version) } }
        dataSource.admission = { $0.numberOfItems > limit ? TooLarge(items: $0.numberOfItems) : nil }
        return (dataSource, seen)
    }

    @Test("an apply the admission refuses changes nothing, calls no observer, and says why once")
    func refused() throws {
        let (dataSource, seen) = try make(limit: 3)
        let before = dataSource.snapshot()
        let update = dataSource.apply(try makeSnapshot(["a": [1, 2, 3, 4]]))
        #expect(update.version == 1 && update.snapshot == before && update.changeset.itemInsertions.isEmpty)
        #expect(dataSource.version == 1 && dataSource.snapshot() == before)
        #expect(seen.all.isEmpty)
        #expect(dataSource.takeRefusal() as? TooLarge == TooLarge(items: 4))
        #expect(dataSource.takeRefusal() == nil)
        #expect(dataSource.apply(try makeSnapshot(["a": [1, 2, 3]])).version == 2, "admitted again once taken")
        #expect(seen.all == [2])
    }

    @Test("until the refusal is taken every apply is refused, whatever its path")
    func sticky() throws {
        let (dataSource, seen) = try make(limit: 3)
        try dataSource.update { (snapshot: inout Snapshot<String, Int>) throws(SnapshotError) in try snapshot.appendItems([3, 4, 5]) }
        dataSource.apply(try makeSnapshot(["a": [9]]))
        dataSource.applySnapshotUsingReloadData(try makeSnapshot(["a": [8]]))
        dataSource.apply(SnapshotTransition(from: dataSource.snapshot(), to: try makeSnapshot(["a": [7]])))
        #expect(dataSource.snapshot().itemIdentifiers == [1, 2] && dataSource.version == 1)
        #expect(seen.all.isEmpty)
        #expect(dataSource.takeRefusal() as? TooLarge == TooLarge(items: 5), "the first refusal")
    }

    @Test("a copy of another data source's apply (asVersion) is not checked, nor a restore")
    func copiesAreNotChecked() throws {
        let (dataSource, _) = try make(limit: 1)
        #expect(dataSource.apply(try makeSnapshot(["a": [1, 2, 3]]), asVersion: 5)?.version == 5)
        dataSource.restore(try makeSnapshot(["a": [4, 5, 6]]), version: 9)
        #expect(dataSource.snapshot().itemIdentifiers == [4, 5, 6] && dataSource.takeRefusal() == nil)
    }
}
