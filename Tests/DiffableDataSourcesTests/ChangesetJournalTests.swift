#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SeededRandom
import Testing
@testable import DiffableDataSources

/// The changeset found from a snapshot's journal (the items its mutations named) instead of by a
/// full diff: it must turn old into new exactly, and equal the diff's for a single mutation.
@Suite("Changeset from a journal of item mutations")
struct ChangesetJournalTests {
    /// A stamped snapshot (as a data source makes current) with 1–3 sections of 0–1,500 items.
    static func base(_ rng: inout SeededRandom) -> Snapshot<String, Int> {
        var snapshot = Snapshot<String, Int>()
        var next = 0
        for s in 0..<Int.random(in: 1...3, using: &rng) {
            try? snapshot.appendSections(["s\(s)"])
            let count = [0, 1, 2, 40, 300, 1500].randomElement(using: &rng)!
            try? snapshot.appendItems(Array(next..<(next + count)), toSection: "s\(s)")
            next += count
        }
        if snapshot.numberOfItems < 2 { try? snapshot.appendItems([1_000_000, 1_000_001], toSection: "s0") }
        return snapshot.stampedForJournal()
    }

    /// One random item mutation that succeeds (or nothing, when the snapshot is too small).
    static func mutate(_ snapshot: inout Snapshot<String, Int>, _ rng: inout SeededRandom, nextItem: inout Int) {
        let items = snapshot.itemIdentifiers
        let sections = snapshot.sectionIdentifiers
        func anyItem() -> Int? { items.randomElement(using: &rng) }
        func fresh(_ count: Int) -> [Int] { defer { nextItem += count }; return Array(nextItem..<(nextItem + count)) }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0:
            try? snapshot.appendItems(fresh(Int.random(in: 1...3, using: &rng)), toSection: sections.randomElement(using: &rng))
        case 1, 2:
            guard let anchor = anyItem() else { return }
            let new = fresh(Int.random(in: 1...3, using: &rng))
            if Bool.random(using: &rng) { try? snapshot.insertItems(new, afterItem: anchor) } else { try? snapshot.insertItems(new, beforeItem: anchor) }
        case 3, 4:
            guard items.count > 2 else { return }
            let victims = (0..<Int.random(in: 1...3, using: &rng)).compactMap { _ in anyItem() }
            try? snapshot.deleteItems(victims)
        case 5:
            // One place down or up: the case where the diff's choice of mover is not unique.
            guard let item = anyItem(), let index = items.firstIndex(of: item), index + 1 < items.count else { return }
            try? snapshot.moveItem(item, afterItem: items[index + 1])
        case 6:
            try? snapshot.reconfigureItems([anyItem()].compactMap { $0 })
        default:
            guard let item = anyItem(), let anchor = anyItem(), item != anchor else { return }
            if Bool.random(using: &rng) { try? snapshot.moveItem(item, afterItem: anchor) } else { try? snapshot.moveItem(item, beforeItem: anchor) }
        }
    }

    /// A stamped base and a snapshot derived from it by a random number of mutations.
    static func scenario(seed: UInt64, mutations: ClosedRange<Int>) -> (old: Snapshot<String, Int>, new: Snapshot<String, Int>) {
        var rng = SeededRandom(seed: seed)
        let old = base(&rng)
        var new = old
        var next = 10_000_000
        for _ in 0..<Int.random(in: mutations, using: &rng) { mutate(&new, &rng, nextItem: &next) }
        return (old, new)
    }

    static func derived(_ old: Snapshot<String, Int>, _ new: Snapshot<String, Int>) -> Changeset<String, Int>? {
        var changes = Changeset<String, Int>()
        changes.diffSections(old, new)
        return changes.deriveItems(old, new) ? changes : nil
    }

    static func expectSameItems(_ a: Changeset<String, Int>, _ b: Changeset<String, Int>) {
        #expect(a.itemDeletions == b.itemDeletions)
        #expect(a.itemInsertions == b.itemInsertions)
        #expect(a.itemMoves == b.itemMoves)
        #expect(a.itemReloads == b.itemReloads)
        #expect(a.itemReconfigures == b.itemReconfigures)
    }

    static func expectOrdered(_ changes: Changeset<String, Int>) {
        func ascending(_ paths: [IndexPath]) -> Bool { zip(paths, paths.dropFirst()).allSatisfy { ($0.section, $0.item) < ($1.section, $1.item) } }
        #expect(ascending(changes.itemDeletions.map(\.indexPath)))
        #expect(ascending(changes.itemInsertions.map(\.indexPath)))
        #expect(ascending(changes.itemMoves.map(\.to)))
    }

    @Test("one mutation: the journal's changeset is the diff's", arguments: 1...400)
    func singleMutationMatchesDiff(seed: UInt64) throws {
        let (old, new) = Self.scenario(seed: seed, mutations: 1...1)
        let derived = try #require(Self.derived(old, new))
        Self.expectSameItems(derived, Changeset(diffing: old, to: new))
        #expect(try old.applying(derived) == new)
    }

    @Test("random sequences of mutations: the journal's changeset turns old into new", arguments: 1...300)
    func sequencesApplyExactly(seed: UInt64) throws {
        let (old, new) = Self.scenario(seed: seed, mutations: 2...12)
        #expect(try old.applying(Changeset(from: old, to: new)) == new)
        guard let derived = Self.derived(old, new) else {
            // Only a journal naming many items of a small list falls back to the diff.
            #expect(new.journal.touched.count > 16 && new.journal.touched.count * 8 > old.numberOfItems)
            return
        }
        #expect(try old.applying(derived) == new)
        Self.expectOrdered(derived)
        let diffed = Changeset(diffing: old, to: new)
        #expect(derived.itemInsertions == diffed.itemInsertions)
        #expect(derived.itemDeletions == diffed.itemDeletions)
        #expect(derived.itemMoves.count >= diffed.itemMoves.count)  // the diff's moves are the fewest
        #expect(Set(derived.itemReconfigures) == Set(diffed.itemReconfigures))
    }

    @Test("an adjacent swap moves the item the diff moves")
    func adjacentSwap() throws {
        let old = try makeSnapshot(["a": [1, 2, 3, 4]]).stampedForJournal()
        var down = old
        try down.moveItem(2, afterItem: 3)  // [1, 3, 2, 4]: the diff moves 3 up
        let changes = try #require(Self.derived(old, down))
        #expect(changes.itemMoves == [.init(id: 3, from: IndexPath(item: 2, section: 0), to: IndexPath(item: 1, section: 0))])
        var up = old
        try up.moveItem(3, beforeItem: 2)  // the same order, the same changeset
        #expect(try #require(Self.derived(old, up)).itemMoves == changes.itemMoves)
    }

    @Test("a section change, an unstamped base, or a base with its own changes: no journal")
    func fallsBackToTheDiff() throws {
        let old = try makeSnapshot(["a": Array(0..<100)]).stampedForJournal()
        var sections = old
        try sections.moveItem(5, afterItem: 50)
        try sections.appendSections(["b"])
        #expect(Self.derived(old, sections) == nil)
        var plain = try makeSnapshot(["a": Array(0..<100)])
        let unstamped = plain
        try plain.moveItem(5, afterItem: 50)
        #expect(Self.derived(unstamped, plain) == nil)
        var middle = old
        try middle.moveItem(1, afterItem: 2)
        var later = middle
        try later.moveItem(7, afterItem: 9)
        #expect(Self.derived(middle, later) == nil)
        // …and the public initializer still gives the right answer in each case.
        for (a, b) in [(old, sections), (unstamped, plain), (middle, later)] { #expect(try a.applying(Changeset(from: a, to: b)) == b) }
    }

    @Test("many named items: the diff is used")
    func manyNamedItems() throws {
        let old = try makeSnapshot(["a": Array(0..<100)]).stampedForJournal()
        var new = old
        for item in 0..<40 { try new.moveItem(item, afterItem: 99) }
        #expect(Self.derived(old, new) == nil)
        #expect(try old.applying(Changeset(from: old, to: new)) == new)
    }

    @Test("a data source's update gets the journal's changeset, equal to the diff's")
    func dataSourceUpdate() throws {
        let source = DiffableDataSource<String, Int>()
        source.apply(try makeSnapshot(["a": Array(0..<2000), "b": Array(2000..<2500)]))
        let before = source.snapshot()
        #expect(before.journal.base != 0 && before.journal.touched.isEmpty)
        let update = try source.update { snapshot in try snapshot.moveItem(1999, beforeItem: 0) }
        #expect(update.changeset.itemMoves == [.init(id: 1999, from: IndexPath(item: 1999, section: 0), to: IndexPath(item: 0, section: 0))])
        Self.expectSameItems(update.changeset, Changeset(diffing: before, to: source.snapshot()))
        #expect(source.snapshot().journal.touched.isEmpty)
        #expect(source.snapshot().journal.base != before.journal.base)
    }
}

extension Changeset {
    static func == (lhs: Changeset, rhs: Changeset?) -> Bool {
        guard let rhs else { return false }
        return lhs.itemMoves == rhs.itemMoves && lhs.itemInsertions == rhs.itemInsertions && lhs.itemDeletions == rhs.itemDeletions
    }
}
