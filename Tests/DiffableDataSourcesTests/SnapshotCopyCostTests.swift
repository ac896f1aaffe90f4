import Testing
@testable import DiffableDataSources

/// Session 11: a snapshot is copied on write, and one write to a copy of a large snapshot (a
/// live list's next version, while its old one is still read) copied the whole item index
/// (2 MiB at 100,000 items), then re-pointed every item its edit pushed along in the chunk
/// (their entries are scattered over the table). A move in a 100,000-item list cost twice one in
/// a 1,000-item list. The index is now kept in pages, and pushed-along items keep stale hints.
@Suite("Snapshot: a write to a copy costs what it changed, not the size of the list")
struct SnapshotCopyCostTests {
    /// Pages of `copy`'s index that are not the original's (compared by their storage).
    static func pagesCopied(_ original: Snapshot<String, Int>, _ copy: Snapshot<String, Int>) -> Int {
        #expect(original.index.pages.count == copy.index.pages.count)
        var copied = 0
        for (a, b) in zip(original.index.pages, copy.index.pages) {
            let same = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
            if !same { copied += 1 }
        }
        return copied
    }

    @Test("moves, inserts and deletes in a copy of a 100,000-item snapshot share all but a few pages of the index",
          arguments: ["move", "insert", "delete", "append"])
    func aWriteCopiesAFewPages(operation: String) throws {
        var original = Snapshot<String, Int>()
        try original.appendSections(["main"])
        try original.appendItems(Array(0..<100_000))
        #expect(original.index.pages.count >= 256, "a table of 2^18 buckets: 512 pages")
        var copy = original
        switch operation {
        case "move": try copy.moveItem(50_500, beforeItem: 50_010)  // within one chunk: pushes ~490 items along
        case "insert": try copy.insertItems([-1, -2], beforeItem: 70_003)
        case "delete": try copy.deleteItems([30_001])
        default: try copy.appendItems([-1])
        }
        let copied = Self.pagesCopied(original, copy)
        #expect(copied <= 4, "\(operation) copied \(copied) of \(original.index.pages.count) pages")
        #expect(copy._brokenInvariant() == nil && original._brokenInvariant() == nil)
        #expect(original.numberOfItems == 100_000 && original.indexOfItem(50_500) == 50_500, "the original is untouched")
        // Every item is still found where it is (stale hints are verified and searched).
        let items = copy.itemIdentifiers
        for position in stride(from: 0, to: items.count, by: 97) { #expect(copy.indexOfItem(items[position]) == position) }
        for position in 49_990..<50_520 { #expect(copy.indexOfItem(items[position]) == position) }
    }

    @Test("a diff against a copy whose hints went stale agrees with the model, both ways")
    func diffWithStaleHints() throws {
        var original = Snapshot<String, Int>()
        try original.appendSections(["main"])
        try original.appendItems(Array(0..<5_000))
        var edited = original
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let items = edited.itemIdentifiers
            let item = items[Int.random(in: 0..<items.count, using: &generator)]
            let before = items[Int.random(in: 0..<items.count, using: &generator)]
            if item != before { try edited.moveItem(item, beforeItem: before) }
        }
        try edited.insertItems([-1, -2, -3], beforeItem: edited.itemIdentifiers[2_500])
        try edited.deleteItems([edited.itemIdentifiers[10]])
        #expect(try original.applying(Changeset(from: original, to: edited)) == edited)
        #expect(try edited.applying(Changeset(from: edited, to: original)) == original)
        #expect(edited._brokenInvariant() == nil)
    }
}
