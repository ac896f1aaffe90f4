import Testing
@testable import DiffableDataSources

/// Large appends: one hash insertion per item, and on any duplicate the snapshot is left
/// exactly as it was, the error naming every culprit.
@Suite("Snapshot: appending large batches")
struct SnapshotAppendTests {
    /// Sections a: [0, 1, 2], b: [3] (room left in b's last chunk), with marks on 1, 2 and a.
    static func start() throws -> Snapshot<String, Int> {
        var snapshot = try makeSnapshot(["a": [0, 1, 2], "b": [3]])
        try snapshot.reloadItems([1])
        try snapshot.reconfigureItems([2])
        try snapshot.reloadSections(["a"])
        return snapshot
    }

    /// Every item's stored offset hint is exact (appends never leave stale hints).
    static func hintsAreExact(_ snapshot: Snapshot<String, Int>) -> Bool {
        for storage in snapshot.sections.values {
            for chunkID in storage.chunkIDs {
                for (offset, item) in snapshot.chunks[chunkID].items.enumerated()
                where !snapshot._hasExactSlot(item, chunk: chunkID, offset: offset) {
                    return false
                }
            }
        }
        return true
    }

    static func expectUnchanged(_ snapshot: Snapshot<String, Int>, _ before: Snapshot<String, Int>) {
        #expect(snapshot == before)
        #expect(snapshot.itemIdentifiers == before.itemIdentifiers)
        #expect(snapshot.numberOfItems == before.numberOfItems)
        #expect(snapshot.reloadedItemIdentifiers == [1])
        #expect(snapshot.reconfiguredItemIdentifiers == [2])
        #expect(snapshot.reloadedSectionIdentifiers == ["a"])
        #expect(snapshot.description == before.description)
        #expect(snapshot._brokenInvariant() == nil)
        #expect(hintsAreExact(snapshot))
        for item in before.itemIdentifiers { #expect(snapshot.indexOfItem(item) == before.indexOfItem(item)) }
    }

    /// 100,000 fresh items (100...100_099) with one position replaced by `duplicate`.
    static func batch(replacing position: Int, with duplicate: Int) -> [Int] {
        var items = Array(100..<100_100)
        items[position] = duplicate
        return items
    }

    @Test("100,000 items, one of them already in another section: throws naming it, changes nothing",
          arguments: [0, 1, 510, 511, 512, 50_000, 99_999])
    func duplicateOfExistingItem(position: Int) throws {
        let before = try Self.start()
        var snapshot = before
        #expect(throws: SnapshotError.duplicateItems(["1"])) {
            try snapshot.appendItems(Self.batch(replacing: position, with: 1), toSection: "b")
        }
        Self.expectUnchanged(snapshot, before)
        // The snapshot still works: the same batch without the duplicate goes in.
        try snapshot.appendItems(Array(100..<100_100), toSection: "b")
        #expect(snapshot.numberOfItems == 100_004)
        #expect(snapshot.indexOfItem(100_099) == 100_003)
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("100,000 items with one repeated within the batch: throws naming it, changes nothing",
          arguments: [(0, 1), (0, 99_999), (300, 700), (511, 512), (40_000, 99_999)])
    func duplicateWithinBatch(first: Int, second: Int) throws {
        let before = try Self.start()
        var snapshot = before
        var items = Array(100..<100_100)
        items[second] = items[first]
        #expect(throws: SnapshotError.duplicateItems(["\(items[first])"])) {
            try snapshot.appendItems(items, toSection: "b")
        }
        Self.expectUnchanged(snapshot, before)
    }

    @Test("every culprit is named, in batch order, existing and repeated alike")
    func everyCulprit() throws {
        let before = try Self.start()
        var snapshot = before
        var items = Array(100..<100_100)
        items[10] = 3          // already in b
        items[20] = 150        // repeats a later item
        items[70_000] = 0      // already in a
        #expect(throws: SnapshotError.duplicateItems(["3", "150", "0"])) {
            try snapshot.appendItems(items, toSection: "a")
        }
        Self.expectUnchanged(snapshot, before)
    }

    @Test("a large append fills the last chunk, then whole chunks, with exact offset hints")
    func chunking() throws {
        var snapshot = try Self.start()
        try snapshot.appendItems(Array(100..<2_000), toSection: "b")
        try snapshot.appendItems(Array(2_000..<2_100), toSection: "b")
        let chunkSizes = snapshot.sections["b"].map { $0.chunkIDs.map { snapshot.chunks[$0].items.count } }
        #expect(chunkSizes == [512, 512, 512, 465])
        #expect(try snapshot.itemIdentifiers(inSection: "b") == [3] + Array(100..<2_100))
        #expect(Self.hintsAreExact(snapshot))
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("freed chunks are reused by a large append")
    func reusesFreedChunks() throws {
        var snapshot = try Self.start()
        try snapshot.appendSections(["c"])
        try snapshot.appendItems(Array(100..<3_000), toSection: "c")
        let chunkCount = snapshot.chunks.count
        try snapshot.deleteSections(["c"])
        try snapshot.appendItems(Array(5_000..<9_000), toSection: "a")
        #expect(snapshot.chunks.count == chunkCount + 1)  // six freed chunks reused, one new
        #expect(try snapshot.itemIdentifiers(inSection: "a") == [0, 1, 2] + Array(5_000..<9_000))
        #expect(snapshot.indexOfItem(8_999) == 4_002)
        #expect(Self.hintsAreExact(snapshot))
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("any sequence can be appended, iterated once, with the same errors")
    func sequences() throws {
        var snapshot = try Self.start()
        try snapshot.appendItems((100..<1_200).lazy.map { $0 * 2 }, toSection: "b")
        try snapshot.appendItems(1_000_000..<1_000_600)
        // A single-pass sequence that reports no count.
        var next = 5_000
        try snapshot.appendItems(AnyIterator { () -> Int? in next += 1; return next <= 6_000 ? next : nil }, toSection: "a")
        #expect(try snapshot.itemIdentifiers(inSection: "b") == [3] + (100..<1_200).map { $0 * 2 } + Array(1_000_000..<1_000_600))
        #expect(try snapshot.itemIdentifiers(inSection: "a") == [0, 1, 2] + Array(5_001...6_000))
        #expect(Self.hintsAreExact(snapshot))
        #expect(snapshot._brokenInvariant() == nil)

        let before = snapshot
        var rest = 0
        // Culprits after the first one are named too, though the sequence is read only once.
        #expect(throws: SnapshotError.duplicateItems(["200", "7", "0"])) {
            try snapshot.appendItems(AnyIterator { () -> Int? in
                rest += 1
                switch rest {
                case 1: return 7
                case 2: return 200
                case 3..<2_000: return 10_000 + rest
                case 2_000: return 7
                case 2_001: return 0
                default: return nil
                }
            })
        }
        #expect(snapshot == before)
        #expect(snapshot.numberOfItems == before.numberOfItems)
        #expect(snapshot._brokenInvariant() == nil)
        #expect(Self.hintsAreExact(snapshot))
    }

    @Test("appending nothing changes nothing, but still needs a section")
    func empty() throws {
        var snapshot = try Self.start()
        let before = snapshot
        try snapshot.appendItems([], toSection: "a")
        try snapshot.appendItems(EmptyCollection<Int>())
        #expect(snapshot == before)
        #expect(snapshot.chunks.count == before.chunks.count)
        var none = Snapshot<String, Int>()
        #expect(throws: SnapshotError.noSectionToAppendTo) { try none.appendItems(EmptyCollection<Int>()) }
        #expect(throws: SnapshotError.unknownSections(["z"])) { try snapshot.appendItems(0..<3, toSection: "z") }
    }
}
