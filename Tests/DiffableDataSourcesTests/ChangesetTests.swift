import SeededRandom
import Testing
@testable import DiffableDataSources

/// The least number of item moves from `old` to `new`: for each section present in both,
/// the survivors that stayed in that section minus their longest increasing run (computed
/// here the slow, obvious way), plus every item that changed section.
func minimalItemMoves(_ old: Snapshot<String, Int>, _ new: Snapshot<String, Int>) -> Int {
    var moves = 0
    for section in new.sectionIdentifiers {
        let newItems = (try? new.itemIdentifiers(inSection: section)) ?? []
        guard let oldItems = try? old.itemIdentifiers(inSection: section) else {
            moves += newItems.filter { old.contains(item: $0) }.count
            continue
        }
        let oldIndex = Dictionary(uniqueKeysWithValues: oldItems.enumerated().map { ($1, $0) })
        let stayed = newItems.compactMap { oldIndex[$0] }
        moves += newItems.filter { old.contains(item: $0) }.count - stayed.count
        moves += stayed.count - quadraticLIS(stayed)
    }
    return moves
}

func minimalSectionMoves(_ old: Snapshot<String, Int>, _ new: Snapshot<String, Int>) -> Int {
    let stayed = new.sectionIdentifiers.compactMap { old.indexOfSection($0) }
    return stayed.count - quadraticLIS(stayed)
}

func quadraticLIS(_ keys: [Int]) -> Int {
    var best = [Int](repeating: 1, count: keys.count)
    for i in keys.indices { for j in 0..<i where keys[j] < keys[i] { best[i] = max(best[i], best[j] + 1) } }
    return best.max() ?? 0
}

/// Checks everything a changeset promises for one pair of snapshots.
func expectSound(_ old: Snapshot<String, Int>, _ new: Snapshot<String, Int>, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let changes = Changeset(from: old, to: new)
    #expect(try old.applying(changes) == new, "applying reproduces the new snapshot", sourceLocation: sourceLocation)
    #expect(changes.itemMoves.count == minimalItemMoves(old, new), "minimal item moves", sourceLocation: sourceLocation)
    #expect(changes.sectionMoves.count == minimalSectionMoves(old, new), "minimal section moves", sourceLocation: sourceLocation)
    let deleted = Set(changes.itemDeletions.map(\.id)), inserted = Set(changes.itemInsertions.map(\.id))
    #expect(deleted.isDisjoint(with: inserted), "a surviving id is never a delete + insert", sourceLocation: sourceLocation)
    #expect(deleted == Set(old.itemIdentifiers).subtracting(new.itemIdentifiers), sourceLocation: sourceLocation)
    #expect(inserted == Set(new.itemIdentifiers).subtracting(old.itemIdentifiers), sourceLocation: sourceLocation)
    let deletionOrder = changes.itemDeletions.map { [$0.indexPath.section, $0.indexPath.item] }
    #expect(deletionOrder == deletionOrder.sorted { $0.lexicographicallyPrecedes($1) }, sourceLocation: sourceLocation)
    let insertionOrder = changes.itemInsertions.map { [$0.indexPath.section, $0.indexPath.item] }
    #expect(insertionOrder == insertionOrder.sorted { $0.lexicographicallyPrecedes($1) }, sourceLocation: sourceLocation)
    for move in changes.itemMoves {
        #expect(old.itemIdentifier(at: move.from) == move.id && new.itemIdentifier(at: move.to) == move.id, sourceLocation: sourceLocation)
    }
}

@Suite("Changeset: named cases")
struct ChangesetTests {
    @Test("[a, b, c] → [b, c, a] is one move (DifferenceKit emits two)")
    func rotateIsOneMove() throws {
        let old = try makeSnapshot(["s": [1, 2, 3]]), new = try makeSnapshot(["s": [2, 3, 1]])
        let changes = Changeset(from: old, to: new)
        #expect(changes.itemMoves == [.init(id: 1, from: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0))])
        #expect(changes.itemDeletions.isEmpty && changes.itemInsertions.isEmpty)
        try expectSound(old, new)
    }

    @Test("identical snapshots give an empty changeset")
    func identical() throws {
        let snapshot = try makeSnapshot(["a": [1, 2], "b": [3]])
        #expect(Changeset(from: snapshot, to: snapshot).isEmpty)
    }

    @Test("empty to full and full to empty")
    func emptyAndFull() throws {
        let empty = Snapshot<String, Int>(), full = try makeSnapshot(["a": [1, 2], "b": [3]])
        let grow = Changeset(from: empty, to: full)
        #expect(grow.sectionInsertions.map(\.id) == ["a", "b"])
        #expect(grow.itemInsertions.map(\.id) == [1, 2, 3])
        let shrink = Changeset(from: full, to: empty)
        #expect(shrink.sectionDeletions.map(\.id) == ["a", "b"])
        #expect(shrink.itemDeletions.map(\.id) == [1, 2, 3])
        try expectSound(empty, full)
        try expectSound(full, empty)
        try expectSound(empty, empty)
    }

    @Test("every section replaced: surviving items move into the new sections")
    func everySectionReplaced() throws {
        let old = try makeSnapshot(["a": [1, 2], "b": [3]]), new = try makeSnapshot(["c": [3, 1], "d": [2, 4]])
        let changes = Changeset(from: old, to: new)
        #expect(Set(changes.sectionDeletions.map(\.id)) == ["a", "b"])
        #expect(Set(changes.sectionInsertions.map(\.id)) == ["c", "d"])
        #expect(Set(changes.itemMoves.map(\.id)) == [1, 2, 3])
        #expect(changes.itemInsertions.map(\.id) == [4])
        try expectSound(old, new)
    }

    @Test("an item moved into a section that is itself new is a move, not delete + insert")
    func moveIntoNewSection() throws {
        let old = try makeSnapshot(["a": [1, 2, 3]]), new = try makeSnapshot(["a": [1, 3], "new": [2]])
        let changes = Changeset(from: old, to: new)
        #expect(changes.itemMoves == [.init(id: 2, from: IndexPath(item: 1, section: 0), to: IndexPath(item: 0, section: 1))])
        #expect(changes.itemDeletions.isEmpty && changes.itemInsertions.isEmpty)
        try expectSound(old, new)
    }

    @Test("full reversal is n − 1 moves", arguments: [2, 10, 1000, 3000])
    func reversal(count: Int) throws {
        let items = Array(0..<count)
        let old = try makeSnapshot(["s": items]), new = try makeSnapshot(["s": items.reversed()])
        #expect(Changeset(from: old, to: new).itemMoves.count == count - 1)
        #expect(try old.applying(Changeset(from: old, to: new)) == new)
    }

    @Test("one element: kept, replaced, moved to another section")
    func oneElement() throws {
        try expectSound(try makeSnapshot(["s": [1]]), try makeSnapshot(["s": [1]]))
        try expectSound(try makeSnapshot(["s": [1]]), try makeSnapshot(["s": [2]]))
        try expectSound(try makeSnapshot(["s": [1], "t": []]), try makeSnapshot(["s": [], "t": [1]]))
    }

    @Test("sections moved: minimal section moves, items travel with their section")
    func sectionMoves() throws {
        let old = try makeSnapshot(["a": [1], "b": [2], "c": [3], "d": [4]])
        let new = try makeSnapshot(["d": [4], "a": [1], "b": [2], "c": [3]])
        let changes = Changeset(from: old, to: new)
        #expect(changes.sectionMoves == [.init(id: "d", from: 3, to: 0)])
        #expect(changes.itemMoves.isEmpty, "items inside a moved section do not move themselves")
        try expectSound(old, new)
    }

    @Test("reloads and reconfigures name old and new positions of survivors only")
    func reloadsAndReconfigures() throws {
        let old = try makeSnapshot(["a": [1, 2, 3]])
        var new = try makeSnapshot(["a": [0, 3, 2, 1]])
        try new.reloadItems([2])
        try new.reconfigureItems([1, 0])
        try new.reloadSections(["a"])
        let changes = Changeset(from: old, to: new)
        #expect(changes.itemReloads == [.init(id: 2, from: IndexPath(item: 1, section: 0), to: IndexPath(item: 2, section: 0))])
        #expect(changes.itemReconfigures == [.init(id: 1, from: IndexPath(item: 0, section: 0), to: IndexPath(item: 3, section: 0))],
                "item 0 is new: an insertion, not a reconfigure")
        #expect(changes.sectionReloads == [.init(id: "a", from: 0, to: 0)])
    }

    @Test("applying a changeset that does not fit throws")
    func applyingMismatch() throws {
        let old = try makeSnapshot(["a": [1, 2, 3]]), new = try makeSnapshot(["a": [3]])
        let changes = Changeset(from: old, to: new)
        let other = try makeSnapshot(["a": [7]])
        #expect(throws: SnapshotError.self) { try other.applying(changes) }
    }
}

@Suite("Changeset: properties over thousands of random pairs")
struct ChangesetPropertyTests {
    /// A random snapshot, then a random edit of it through the Snapshot API.
    static func randomPair(seed: UInt64) throws -> (Snapshot<String, Int>, Snapshot<String, Int>) {
        var rng = SeededRandom(seed: seed)
        var next = 0
        var old = Snapshot<String, Int>()
        for s in 0..<Int.random(in: 0...4, using: &rng) {
            try old.appendSections(["s\(s)"])
            let count = Int.random(in: 0...12, using: &rng)
            try old.appendItems(Array(next..<next + count)); next += count
        }
        var new = old
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let items = new.itemIdentifiers, sections = new.sectionIdentifiers
            switch Int.random(in: 0..<10, using: &rng) {
            case 0 where items.count > 1:     // move within or across sections
                let a = items.randomElement(using: &rng)!, b = items.randomElement(using: &rng)!
                if a != b { try new.moveItem(a, beforeItem: b) }
            case 1 where !items.isEmpty:      // delete a few
                try new.deleteItems(Array(Set((0..<Int.random(in: 1...3, using: &rng)).map { _ in items.randomElement(using: &rng)! })))
            case 2 where !items.isEmpty:      // insert a few
                let count = Int.random(in: 1...3, using: &rng)
                try new.insertItems(Array(next..<next + count), afterItem: items.randomElement(using: &rng)!); next += count
            case 3 where !sections.isEmpty:   // append to a section
                try new.appendItems([next], toSection: sections.randomElement(using: &rng)!); next += 1
            case 4:                           // new section, maybe with items moved into it
                let id = "n\(next)"; next += 1
                if let anchor = sections.randomElement(using: &rng) { try new.insertSections([id], beforeSection: anchor) } else { try new.appendSections([id]) }
                if let moved = items.randomElement(using: &rng), Bool.random(using: &rng) {
                    try new.deleteItems([moved]); try new.appendItems([moved], toSection: id)
                }
            case 5 where !sections.isEmpty:   // delete a section
                try new.deleteSections([sections.randomElement(using: &rng)!])
            case 6 where sections.count > 1:  // move a section
                let a = sections.randomElement(using: &rng)!, b = sections.randomElement(using: &rng)!
                if a != b { try new.moveSection(a, afterSection: b) }
            case 7 where !sections.isEmpty:   // shuffle or reverse a whole section
                let section = sections.randomElement(using: &rng)!
                let current = try new.itemIdentifiers(inSection: section)
                let reordered = Bool.random(using: &rng) ? current.reversed() : current.shuffled(using: &rng)
                try new.deleteItems(current); try new.appendItems(reordered, toSection: section)
            default:
                break
            }
        }
        return (old, new)
    }

    @Test("applying the changeset reproduces the new snapshot; moves are n − LIS", arguments: 0..<10)
    func randomPairs(batch: UInt64) throws {
        for seed in (batch * 300)..<((batch + 1) * 300) {
            let (old, new) = try Self.randomPair(seed: seed)
            try expectSound(old, new)
        }
    }

    @Test("large random pairs across chunk boundaries", arguments: 0..<4)
    func largePairs(seed: UInt64) throws {
        var rng = SeededRandom(seed: 10_000 + seed)
        let items = Array(0..<5000)
        let old = try makeSnapshot([("a", Array(items[..<2500])), ("b", Array(items[2500...]))])
        var new = old
        for _ in 0..<300 {
            let a = items.randomElement(using: &rng)!, b = items.randomElement(using: &rng)!
            if a != b, new.contains(item: a), new.contains(item: b) { try new.moveItem(a, afterItem: b) }
        }
        try new.deleteItems(Array(Set((0..<200).map { _ in items.randomElement(using: &rng)! })).filter { new.contains(item: $0) })
        try new.insertItems(Array(9000..<9100), afterItem: new.itemIdentifiers[100])
        let changes = Changeset(from: old, to: new)
        #expect(try old.applying(changes) == new)
        #expect(changes.itemMoves.count == minimalItemMoves(old, new))
    }
}

import Foundation
