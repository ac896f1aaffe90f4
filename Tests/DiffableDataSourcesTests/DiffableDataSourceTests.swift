import Testing
import Synchronization
@testable import DiffableDataSources

@Suite("DiffableDataSource")
struct DiffableDataSourceTests {
    @Test("apply hands each changeset to observers, in version order")
    func applyNotifies() throws {
        let dataSource = DiffableDataSource<String, Int>()
        let seen = Mutex<[DataSourceUpdate<String, Int>]>([])
        dataSource.addObserver { update in seen.withLock { $0.append(update) } }
        let first = try makeSnapshot(["main": [1, 2, 3]])
        dataSource.apply(first)
        var second = first
        try second.deleteItems([2])
        try second.reconfigureItems([3])
        dataSource.apply(second, animatingDifferences: false)
        let updates = seen.withLock { $0 }
        #expect(updates.map(\.version) == [1, 2])
        #expect(updates[0].changeset.itemInsertions.map(\.id) == [1, 2, 3])
        #expect(updates[1].changeset.itemDeletions.map(\.id) == [2])
        #expect(updates[1].changeset.itemReconfigures.map(\.id) == [3])
        #expect(updates[1].animatingDifferences == false)
        #expect(dataSource.snapshot() == second)
        #expect(dataSource.snapshot().reconfiguredItemIdentifiers.isEmpty, "marks are consumed by the apply")
        #expect(dataSource.version == 2)
    }

    @Test("lookups: itemIdentifier(for:), indexPath(for:), sectionIdentifier(for:), index(for:)")
    func lookups() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1], "b": [2, 3]]))
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 1, section: 1)) == 3)
        #expect(dataSource.itemIdentifier(for: IndexPath(item: 9, section: 1)) == nil)
        #expect(dataSource.indexPath(for: 2) == IndexPath(item: 0, section: 1))
        #expect(dataSource.indexPath(for: 7) == nil)
        #expect(dataSource.sectionIdentifier(for: 1) == "b")
        #expect(dataSource.sectionIdentifier(for: 5) == nil)
        #expect(dataSource.index(for: "a") == 0)
    }

    @Test("applySnapshotUsingReloadData is flagged for observers")
    func reloadData() throws {
        let dataSource = DiffableDataSource<String, Int>()
        let update = dataSource.applySnapshotUsingReloadData(try makeSnapshot(["a": [1]]))
        #expect(update.kind == .reloadData && !update.animatingDifferences)
    }

    @Test("conditional apply refuses a stale version")
    func conditional() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1]]))
        #expect(dataSource.apply(try makeSnapshot(["a": [2]]), ifVersion: 0) == nil)
        #expect(dataSource.snapshot().itemIdentifiers == [1])
        #expect(dataSource.apply(try makeSnapshot(["a": [2]]), ifVersion: 1)?.version == 2)
    }

    @Test("a conditional update runs its body only at the expected version")
    func conditionalUpdate() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1]]))
        var ran = false
        let stale = try dataSource.update(ifVersion: 0) { (snapshot: inout Snapshot<String, Int>) throws(SnapshotError) in
            ran = true
            try snapshot.appendItems([2])
        }
        #expect(stale == nil && !ran && dataSource.version == 1 && dataSource.snapshot().itemIdentifiers == [1])
        let fresh = try dataSource.update(ifVersion: 1) { (snapshot: inout Snapshot<String, Int>) throws(SnapshotError) in
            try snapshot.appendItems([2])
        }
        #expect(fresh?.version == 2 && dataSource.snapshot().itemIdentifiers == [1, 2])
        let unconditional = try dataSource.update(ifVersion: nil) { (snapshot: inout Snapshot<String, Int>) throws(SnapshotError) in
            try snapshot.deleteItems([1])
        }
        #expect(unconditional?.version == 3)
    }

    @Test("update(_:) applies nothing when the body throws")
    func updateThrows() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1]]))
        #expect(throws: SnapshotError.self) {
            try dataSource.update { snapshot throws(SnapshotError) in
                try snapshot.appendItems([2])
                try snapshot.appendItems([1])
            }
        }
        #expect(dataSource.version == 1)
        #expect(dataSource.snapshot().itemIdentifiers == [1])
    }

    @Test("concurrent applies are serialized: every version seen once, in order, each diffed against its predecessor")
    func concurrentApplies() async throws {
        let dataSource = DiffableDataSource<String, Int>()
        let seen = Mutex<[Int]>([])
        let consistent = Mutex(true)
        dataSource.addObserver { update in
            seen.withLock { $0.append(update.version) }
            if (try? update.previousSnapshot.applying(update.changeset)) != update.snapshot { consistent.withLock { $0 = false } }
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        _ = try? dataSource.update { snapshot throws(SnapshotError) in
                            if snapshot.numberOfSections == 0 { try snapshot.appendSections(["main"]) }
                            try snapshot.appendItems([task * 1000 + step])
                            if step % 3 == 0, let first = snapshot.itemIdentifiers.first { try snapshot.deleteItems([first]) }
                        }
                    }
                }
            }
        }
        #expect(seen.withLock { $0 } == Array(1...400))
        #expect(consistent.withLock { $0 })
    }

    @Test("section snapshots: apply shows visible items; expand and collapse through the handlers")
    func outline() throws {
        let dataSource = DiffableDataSource<String, String>()
        let calls = Mutex<[String]>([])
        var handlers = SectionSnapshotHandlers<String>()
        handlers.shouldExpandItem = { $0 != "Locked" }
        handlers.willExpandItem = { item in calls.withLock { $0.append("willExpand \(item)") } }
        handlers.willCollapseItem = { item in calls.withLock { $0.append("willCollapse \(item)") } }
        handlers.snapshotForExpandingParent = { parent, subtree in
            guard parent == "Lazy" else { return subtree }
            var loaded = subtree
            try? loaded.append(["Loaded"], to: parent)
            return loaded
        }
        dataSource.sectionSnapshotHandlers = handlers
        var outline = SectionSnapshot<String>()
        try outline.append(["Mountains", "Lazy", "Locked"])
        try outline.append(["Everest"], to: "Mountains")
        try outline.append(["Secret"], to: "Locked")
        try dataSource.apply(outline, to: "main")
        #expect(dataSource.snapshot().itemIdentifiers == ["Mountains", "Lazy", "Locked"])
        #expect(try dataSource.snapshot(for: "main") == outline)

        let expanded = try dataSource.expand("Mountains")
        #expect(expanded?.changeset.itemInsertions.map(\.id) == ["Everest"])
        try dataSource.expand("Lazy")
        #expect(dataSource.snapshot().itemIdentifiers == ["Mountains", "Everest", "Lazy", "Loaded", "Locked"])
        #expect(try dataSource.expand("Locked") == nil, "shouldExpandItem said no")
        try dataSource.collapse("Mountains")
        #expect(dataSource.snapshot().itemIdentifiers == ["Mountains", "Lazy", "Loaded", "Locked"])
        #expect(calls.withLock { $0 } == ["willExpand Mountains", "willExpand Lazy", "willCollapse Mountains"])
        #expect(throws: DataSourceError.notInOutline(item: "Nowhere")) { try dataSource.expand("Nowhere") }
    }

    @Test("a section snapshot whose items live in another section is rejected")
    func outlineConflict() throws {
        let dataSource = DiffableDataSource<String, String>()
        dataSource.apply(try { var s = Snapshot<String, String>(); try s.appendSections(["a"]); try s.appendItems(["x"]); return s }())
        var outline = SectionSnapshot<String>()
        try outline.append(["x"])
        #expect(throws: DataSourceError.snapshot(.duplicateItems(["x"]))) { try dataSource.apply(outline, to: "b") }
        #expect(dataSource.version == 1)
    }

    @Test("flat snapshot(for:) of a plain section; unknown section throws")
    func flatSectionSnapshot() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1, 2]]))
        #expect(try dataSource.snapshot(for: "a").rootItems == [1, 2])
        #expect(throws: DataSourceError.self) { try dataSource.snapshot(for: "z") }
    }

    @Test("reordering: refused without canReorderItem; transaction carries both snapshots and the difference")
    func reordering() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": [1, 2, 3], "b": [4]]))
        #expect(throws: DataSourceError.reorderingNotAllowed(item: "1")) { try dataSource.reorderItem(1, to: IndexPath(item: 2, section: 0)) }

        let events = Mutex<[String]>([])
        var handlers = ReorderingHandlers<String, Int>()
        handlers.canReorderItem = { $0 != 4 }
        handlers.willReorder = { _ in events.withLock { $0.append("will") } }
        handlers.didReorder = { transaction in events.withLock { $0.append("did \(transaction.finalSnapshot.itemIdentifiers)") } }
        dataSource.reorderingHandlers = handlers

        let transaction = try dataSource.reorderItem(1, to: IndexPath(item: 2, section: 0))
        #expect(transaction.initialSnapshot.itemIdentifiers == [1, 2, 3, 4])
        #expect(transaction.finalSnapshot.itemIdentifiers == [2, 3, 1, 4])
        #expect(transaction.initialSnapshot.itemIdentifiers.applying(transaction.difference) == [2, 3, 1, 4])
        #expect(transaction.sectionTransactions.map(\.sectionIdentifier) == ["a"])
        #expect(events.withLock { $0 } == ["will", "did [2, 3, 1, 4]"])

        try dataSource.reorderItem(2, to: IndexPath(item: 1, section: 1))
        #expect(try dataSource.snapshot().itemIdentifiers(inSection: "b") == [4, 2])
        #expect(throws: DataSourceError.reorderingNotAllowed(item: "4")) { try dataSource.reorderItem(4, to: IndexPath(item: 0, section: 0)) }
        #expect(throws: DataSourceError.invalidDestination("[5, 0]")) { try dataSource.reorderItem(3, to: IndexPath(item: 0, section: 5)) }
        #expect(throws: DataSourceError.snapshot(.unknownItems(["9"]))) { try dataSource.reorderItem(9, to: IndexPath(item: 0, section: 0)) }
        #expect(dataSource.snapshot().itemIdentifiers == [3, 1, 4, 2])
    }
}

import Foundation
