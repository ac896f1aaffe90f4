import Testing
@testable import DiffableDataSources

@Suite("Snapshot: building and querying")
struct SnapshotTests {
    @Test("appendItems without a section goes to the last section")
    func appendToLastSection() throws {
        var snapshot = Snapshot<String, Int>()
        try snapshot.appendSections(["a", "b"])
        try snapshot.appendItems([1, 2])
        #expect(try snapshot.itemIdentifiers(inSection: "b") == [1, 2])
        #expect(try snapshot.itemIdentifiers(inSection: "a") == [])
        try snapshot.appendItems([3], toSection: "a")
        #expect(snapshot.itemIdentifiers == [3, 1, 2])
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("sections added in order, as the Mountains post builds them")
    func sectionsInOrder() throws {
        var snapshot = Snapshot<String, Int>()
        try snapshot.appendSections(["a"]); try snapshot.appendItems([1, 2])
        try snapshot.appendSections(["b"]); try snapshot.appendItems([3])
        #expect(snapshot.sectionIdentifiers == ["a", "b"])
        #expect(snapshot.numberOfItems == 3)
        #expect(snapshot.numberOfSections == 2)
        #expect(try snapshot.numberOfItems(inSection: "a") == 2)
        #expect(snapshot.sectionIdentifier(containingItem: 3) == "b")
        #expect(snapshot.sectionIdentifier(containingItem: 9) == nil)
        #expect(snapshot.indexOfItem(3) == 2)
        #expect(snapshot.indexOfItem(9) == nil)
        #expect(snapshot.indexOfSection("b") == 1)
        #expect(snapshot.indexPath(ofItem: 3) == IndexPath(item: 0, section: 1))
        #expect(snapshot.itemIdentifier(at: IndexPath(item: 1, section: 0)) == 2)
        #expect(snapshot.itemIdentifier(at: IndexPath(item: 5, section: 0)) == nil)
        #expect(snapshot.contains(item: 1) && !snapshot.contains(item: 4))
        #expect(snapshot.contains(section: "a") && !snapshot.contains(section: "z"))
    }

    @Test("insertSections before and after")
    func insertSections() throws {
        var snapshot = try makeSnapshot(["a": [1], "d": [2]])
        try snapshot.insertSections(["b", "c"], afterSection: "a")
        try snapshot.insertSections(["0"], beforeSection: "a")
        #expect(snapshot.sectionIdentifiers == ["0", "a", "b", "c", "d"])
    }

    @Test("deleteSections removes their items")
    func deleteSections() throws {
        var snapshot = try makeSnapshot(["a": [1, 2], "b": [3], "c": [4]])
        try snapshot.reloadItems([1])
        try snapshot.deleteSections(["a", "c"])
        #expect(snapshot.sectionIdentifiers == ["b"])
        #expect(snapshot.itemIdentifiers == [3])
        #expect(!snapshot.contains(item: 1))
        #expect(snapshot.reloadedItemIdentifiers.isEmpty)
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("moveSection before and after carries the items")
    func moveSection() throws {
        var snapshot = try makeSnapshot(["a": [1], "b": [2], "c": [3]])
        try snapshot.moveSection("a", afterSection: "c")
        #expect(snapshot.sectionIdentifiers == ["b", "c", "a"])
        try snapshot.moveSection("c", beforeSection: "b")
        #expect(snapshot.sectionIdentifiers == ["c", "b", "a"])
        #expect(snapshot.itemIdentifiers == [3, 2, 1])
    }

    @Test("insertItems before and after, including across a chunk boundary")
    func insertItems() throws {
        var snapshot = try makeSnapshot(["a": [1, 5]])
        try snapshot.insertItems([2, 3], beforeItem: 5)
        try snapshot.insertItems([4], afterItem: 3)
        try snapshot.insertItems([6], afterItem: 5)
        try snapshot.insertItems([0], beforeItem: 1)
        #expect(snapshot.itemIdentifiers == [0, 1, 2, 3, 4, 5, 6])
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("moveItem within and across sections")
    func moveItem() throws {
        var snapshot = try makeSnapshot(["a": [1, 2, 3], "b": [4]])
        try snapshot.moveItem(1, afterItem: 3)
        #expect(try snapshot.itemIdentifiers(inSection: "a") == [2, 3, 1])
        try snapshot.moveItem(2, beforeItem: 4)
        #expect(try snapshot.itemIdentifiers(inSection: "a") == [3, 1])
        #expect(try snapshot.itemIdentifiers(inSection: "b") == [2, 4])
        #expect(snapshot.sectionIdentifier(containingItem: 2) == "b")
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("deleteItems and deleteAllItems")
    func deleteItems() throws {
        var snapshot = try makeSnapshot(["a": [1, 2, 3], "b": [4]])
        try snapshot.deleteItems([2, 4])
        #expect(snapshot.itemIdentifiers == [1, 3])
        #expect(snapshot.sectionIdentifiers == ["a", "b"])
        snapshot.deleteAllItems()
        #expect(snapshot.numberOfItems == 0)
        #expect(snapshot.numberOfSections == 0)
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("reload, reconfigure and section reload marks are kept until cleared, moves keep them")
    func marks() throws {
        var snapshot = try makeSnapshot(["a": [1, 2, 3]])
        try snapshot.reloadItems([1])
        try snapshot.reconfigureItems([2, 3])
        try snapshot.reloadSections(["a"])
        try snapshot.moveItem(2, afterItem: 3)
        try snapshot.deleteItems([3])
        #expect(snapshot.reloadedItemIdentifiers == [1])
        #expect(snapshot.reconfiguredItemIdentifiers == [2])
        #expect(snapshot.reloadedSectionIdentifiers == ["a"])
        let cleared = snapshot.clearingMarks()
        #expect(cleared.reloadedItemIdentifiers.isEmpty && cleared.reconfiguredItemIdentifiers.isEmpty)
        #expect(cleared == snapshot, "marks do not take part in equality")
    }

    @Test("equality ignores chunk boundaries")
    func equalityAcrossChunking() throws {
        var built = Snapshot<String, Int>()
        try built.appendSections(["a"])
        for i in 0..<3000 { try built.appendItems([i]) }
        var inserted = Snapshot<String, Int>()
        try inserted.appendSections(["a"])
        try inserted.appendItems([0, 2999])
        try inserted.insertItems(Array(1..<2999), afterItem: 0)
        #expect(built == inserted)
        #expect(inserted._brokenInvariant() == nil)
        try inserted.moveItem(5, afterItem: 6)
        #expect(built != inserted)
    }

    @Test("offset hints go stale after edits in the middle of a chunk, and lookups and the diff still agree")
    func staleOffsetHints() throws {
        var snapshot = try makeSnapshot(["a": Array(0..<600)])
        let before = snapshot
        try snapshot.insertItems([-1, -2], beforeItem: 10)   // shifts 10…511 inside the first chunk
        try snapshot.deleteItems([3])                        // shifts them back by one
        try snapshot.moveItem(500, beforeItem: 0)
        let expected = [500, 0, 1, 2, 4, 5, 6, 7, 8, 9, -1, -2] + Array(10..<500) + Array(501..<600)
        #expect(snapshot.itemIdentifiers == expected)
        for (index, item) in expected.enumerated() { #expect(snapshot.indexOfItem(item) == index) }
        #expect(try before.applying(Changeset(from: before, to: snapshot)) == snapshot)
        #expect(try snapshot.applying(Changeset(from: snapshot, to: before)) == before)
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("description is readable")
    func description() throws {
        let snapshot = try makeSnapshot(["main": [1, 2, 3]])
        #expect(snapshot.description == "Snapshot(1 section, 3 items)\n  main: [1, 2, 3]")
    }

    @Test("works with UUID identifiers and enum sections")
    func uuidItems() throws {
        enum Section: Hashable, Sendable { case main }
        let ids = (0..<2000).map { _ in UUID() }
        var snapshot = Snapshot<Section, UUID>()
        try snapshot.appendSections([.main])
        try snapshot.appendItems(ids)
        #expect(snapshot.indexOfItem(ids[1500]) == 1500)
        #expect(snapshot._brokenInvariant() == nil)
    }
}

import Foundation
