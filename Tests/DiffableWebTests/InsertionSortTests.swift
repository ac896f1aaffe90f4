import CompositionalLayout
import DiffableDataSources
import Foundation
import SeededRandom
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Apple's insertion-sort visualization on its own: a step is moves only, the rows end sorted,
/// Start and Stop declare the sorting job, the state round-trips, and the nodes are squares
/// that fit a phone and a desktop.
@Suite("Insertion sort: steps are moves only, rows end sorted, the job follows Start, Stop and watchers")
struct InsertionSortTests {
    static let pace = InsertionSort.Pace(step: .milliseconds(1), pause: .milliseconds(1))

    static func shuffled(seed: UInt64) -> Snapshot<String, String> {
        var generator = SeededRandom(seed: seed)
        return SortingRows.shuffled(rows: InsertionSort.rowCount, nodes: InsertionSort.nodeCount, using: &generator)
    }

    static func values(_ list: Snapshot<String, String>, row: String) -> [Int] {
        ((try? list.itemIdentifiers(inSection: row)) ?? []).compactMap { SortingRows.Node($0)?.value }
    }

    @Test("a node's identifier names its row and its value, and nothing else reads as one",
          arguments: ["row-3-node-7", "row-0-node-0", "row-15-node-11"])
    func identifiers(_ id: String) throws {
        let node = try #require(SortingRows.Node(id))
        #expect(node.id == id)
    }

    @Test("a script's identifiers are not nodes", arguments: ["row-3-node-", "row-03-node-7", "row-3-node--1", "row-3-node-7-x", "n7", "row-a-node-1", ""])
    func notNodes(_ id: String) {
        #expect(SortingRows.Node(id) == nil)
    }

    @Test("a shuffle holds every value once in every row, in sections row-0…", arguments: [1, 2, 3] as [UInt64])
    func shuffle(seed: UInt64) {
        let list = Self.shuffled(seed: seed)
        #expect(list.sectionIdentifiers == (0..<InsertionSort.rowCount).map { "row-\($0)" })
        for row in list.sectionIdentifiers {
            #expect(Self.values(list, row: row).sorted() == Array(0..<InsertionSort.nodeCount))
            #expect(((try? list.itemIdentifiers(inSection: row)) ?? []).allSatisfy { $0.hasPrefix(row + "-node-") })
        }
    }

    @Test("a step moves one node within every unsorted row: its changeset is moves only", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func stepIsMovesOnly(seed: UInt64) throws {
        var list = Self.shuffled(seed: seed)
        while !SortingRows.isSorted(list) {
            let before = list
            let unsorted = before.sectionIdentifiers.filter { SortingRows.insertion(in: (try? before.itemIdentifiers(inSection: $0)) ?? []) != nil }
            let moved = try SortingRows.step(&list)
            let changes = Changeset(from: before, to: list)
            #expect(moved == unsorted.count)
            #expect(changes.itemDeletions.isEmpty && changes.itemInsertions.isEmpty && changes.itemReloads.isEmpty && changes.itemReconfigures.isEmpty)
            #expect(changes.sectionDeletions.isEmpty && changes.sectionInsertions.isEmpty && changes.sectionMoves.isEmpty && changes.sectionReloads.isEmpty)
            #expect(changes.itemMoves.count == unsorted.count, "one move a row: the others keep their order")
            #expect(changes.itemMoves.allSatisfy { $0.from.section == $0.to.section }, "a node stays in its row")
        }
    }

    @Test("steps leave every row 0…n−1 ascending, in at most n − 1 steps", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func rowsEndSorted(seed: UInt64) throws {
        var state = InsertionSort(pace: Self.pace)
        var list = Self.shuffled(seed: seed)
        var steps = 0
        while !state.sorted && steps < InsertionSort.nodeCount {
            try state.step(&list)
            steps += 1
        }
        #expect(state.sorted && steps <= InsertionSort.nodeCount - 1)
        for row in list.sectionIdentifiers { #expect(Self.values(list, row: row) == Array(0..<InsertionSort.nodeCount)) }
        #expect(state.steps == steps)
        let sorted = list
        try state.step(&list)
        #expect(list.itemIdentifiers == sorted.itemIdentifiers && state.steps == steps, "a sorted list makes no step")
    }

    @Test("insertion is stable, and a node a script named otherwise sorts last")
    func insertionOrder() {
        #expect(SortingRows.insertion(in: ["row-0-node-0", "row-0-node-1"]) == nil)
        let found = SortingRows.insertion(in: ["row-0-node-1", "row-0-node-4", "row-0-node-2", "row-0-node-0"])
        #expect(found?.node == "row-0-node-2" && found?.before == "row-0-node-4", "the first descent goes in front of the first larger node")
        let stranger = SortingRows.insertion(in: ["x", "row-0-node-3"])
        #expect(stranger?.node == "row-0-node-3" && stranger?.before == "x")
    }

    @Test("the sorting job runs only while started and watched; once sorted, the next job is the shuffle")
    func jobsFollowStartStopAndWatchers() throws {
        var state = InsertionSort(pace: Self.pace)
        var list = Self.shuffled(seed: 9)
        func jobs(watchers: Int) -> [String] {
            state.jobs(ListActivity(watchers: watchers, visibleItems: [], lastVisiblePosition: nil, itemCount: list.numberOfItems)).map(\.id)
        }
        #expect(jobs(watchers: 1) == [], "a new list is stopped")
        try state.perform(.start, on: &list)
        #expect(state.status(of: list) == "Sorting" && state.pageValues.sorter == "sorting")
        #expect(jobs(watchers: 0) == [], "nobody watches: no job, no CPU")
        #expect(jobs(watchers: 2) == ["sort 0"])
        while !state.sorted { try state.step(&list) }
        #expect(jobs(watchers: 1) == ["shuffle 1"])
        #expect(state.status(of: list) == "Sorted; a new shuffle follows")
        var generator = SeededRandom(seed: 10)
        state.shuffle(&list, using: &generator)
        #expect(jobs(watchers: 1) == ["sort 1"] && !SortingRows.isSorted(list))
        try state.perform(.stop, on: &list)
        #expect(jobs(watchers: 1) == [] && state.status(of: list) == "Stopped" && state.pageValues.sorter == "stopped")
    }

    @Test("the state round-trips through its saved form; the shared pace is not saved")
    func stateRoundTrips() throws {
        var state = InsertionSort(pace: Self.pace)
        var list = Self.shuffled(seed: 11)
        try state.perform(.start, on: &list)
        for _ in 0..<3 { try state.step(&list) }
        state.shuffles = 4
        let saved = try JSONEncoder().encode(state)
        let keys = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any]).keys
        #expect(Set(keys) == ["sorting", "sorted", "steps", "shuffles"])
        let restored = try JSONDecoder().decode(InsertionSort.self, from: saved)
        #expect(restored.sorting && restored.sorted == state.sorted && restored.steps == 3 && restored.shuffles == 4)
    }

    @Test("a node is a square of its hue with its number and label", arguments: [("row-3-node-7", 8, 210, "8 of 12, row 4"), ("row-0-node-0", 1, 0, "1 of 12, row 1")])
    func cells(_ id: String, number: Int, hue: Int, label: String) throws {
        let cell = try #require(InsertionSort(pace: Self.pace).cell(for: id))
        #expect(cell.number == number && cell.hue == hue && cell.label == label)
        #expect(InsertionSort(pace: Self.pace).cell(for: "row-3-node-x") == nil)
    }

    @Test("each row is one row of square nodes that fits the width: a phone's, a desktop's", arguments: [390.0, 1280.0, 300.0])
    func layoutFits(width: Double) throws {
        let counts = Array(repeating: InsertionSort.nodeCount, count: InsertionSort.rowCount)
        let result = InsertionSort(pace: Self.pace).layout().solve(itemCounts: counts, container: LayoutContainer(width: width, height: 844))
        let side = min(width, NodeRows.maximumSide * Double(InsertionSort.nodeCount)) / Double(InsertionSort.nodeCount)
        for section in counts.indices {
            let frames = try (0..<InsertionSort.nodeCount).map { try #require(result.itemFrame(at: ItemPath(section: section, item: $0))) }
            #expect(Set(frames.map(\.y)).count == 1, "row \(section) is one row")
            for (index, frame) in frames.enumerated() {
                #expect(abs(frame.width - frame.height) < 0.01 && abs(frame.width - (side - 2 * NodeRows.inset)) < 0.01)
                #expect(abs(frame.x - (Double(index) * side + NodeRows.inset)) < 0.01)
            }
            #expect(frames.last!.x + frames.last!.width <= width)
        }
        #expect(abs(result.contentSize.height - side * Double(InsertionSort.rowCount)) < 0.01)
    }
}
