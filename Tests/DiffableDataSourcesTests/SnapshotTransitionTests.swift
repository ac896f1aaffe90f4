import SeededRandom
import Synchronization
import Testing
@testable import DiffableDataSources

@Suite("SnapshotTransition")
struct SnapshotTransitionTests {
    @Test("isIdentical: copies of one snapshot are, a mutated copy and an equal rebuild are not")
    func identity() throws {
        let snapshot = try makeSnapshot(["a": Array(0..<3000), "b": [5000, 5001]])
        let copy = snapshot
        #expect(copy.isIdentical(to: snapshot))
        #expect(snapshot.clearingMarks().isIdentical(to: snapshot), "marks are not content")
        var moved = snapshot
        try moved.moveItem(5001, beforeItem: 5000)
        #expect(!moved.isIdentical(to: snapshot))
        var sectionsMoved = snapshot
        try sectionsMoved.moveSection("b", beforeSection: "a")
        #expect(!sectionsMoved.isIdentical(to: snapshot), "same chunks, other order")
        let rebuilt = try makeSnapshot(["a": Array(0..<3000), "b": [5000, 5001]])
        #expect(rebuilt == snapshot)
        #expect(!rebuilt.isIdentical(to: snapshot), "equal is not identical: such a snapshot is diffed")
    }

    @Test("a data source showing `from` takes the transition's changeset; every data source gets the same object")
    func shortcut() throws {
        let from = try makeSnapshot(["main": Array(0..<1000)])
        var to = from
        try to.deleteItems(Array(stride(from: 0, to: 1000, by: 3)))
        try to.appendItems([2000, 2001])
        try to.reconfigureItems([1])
        let step = SnapshotTransition(from: from, to: to)
        #expect(step.changeset == Changeset(from: from, to: to))
        #expect(step.changeCount == 334 + 2 + 1)
        for _ in 0..<3 {
            let dataSource = DiffableDataSource<String, Int>()
            dataSource.apply(from)
            let update = dataSource.apply(step)
            #expect(update.transition === step)
            #expect(update.changeset == step.changeset)
            #expect(update.version == 2)
            #expect(dataSource.snapshot() == to)
            #expect(dataSource.snapshot().reconfiguredItemIdentifiers.isEmpty, "marks are consumed as by any apply")
        }
    }

    @Test("a data source showing anything else diffs: an equal rebuild, another snapshot, an empty one")
    func fallback() throws {
        let from = try makeSnapshot(["main": Array(0..<100)])
        var to = from
        try to.moveItem(99, beforeItem: 0)
        let step = SnapshotTransition(from: from, to: to)
        let starts = [try makeSnapshot(["main": Array(0..<100)]), try makeSnapshot(["main": [7, 8, 500]]), Snapshot<String, Int>()]
        for start in starts {
            let dataSource = DiffableDataSource<String, Int>()
            dataSource.apply(start)
            let update = dataSource.apply(step)
            #expect(update.transition == nil)
            #expect(update.changeset == Changeset(from: start, to: to))
            #expect(dataSource.snapshot() == to)
        }
    }

    @Test("property: chains of shared transitions give each data source the diff's result", arguments: [1, 2, 3] as [UInt64])
    func chains(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        // Results of a few "queries": ordered subsets of one catalog, built once and shared.
        let catalog = Array(0..<400)
        let results = try (0..<6).map { _ in
            try makeSnapshot(["main": catalog.filter { _ in Bool.random(using: &rng) }])
        }
        var steps: [[SnapshotTransition<String, Int>?]] = Array(repeating: Array(repeating: nil, count: 6), count: 6)
        let dataSources = (0..<4).map { _ in DiffableDataSource<String, Int>() }
        var current = Array(repeating: 0, count: dataSources.count)
        for (index, dataSource) in dataSources.enumerated() { dataSource.apply(results[current[index]]) }
        for _ in 0..<60 {
            let index = Int.random(in: 0..<dataSources.count, using: &rng)
            let next = Int.random(in: 0..<results.count, using: &rng)
            let before = dataSources[index].snapshot()
            let step = steps[current[index]][next] ?? SnapshotTransition(from: results[current[index]], to: results[next])
            steps[current[index]][next] = step
            let update = dataSources[index].apply(step)
            #expect(update.transition === step, "the data source still shows the shared snapshot")
            #expect(try before.applying(update.changeset) == results[next])
            current[index] = next
        }
    }
}
