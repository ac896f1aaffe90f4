import CompositionalLayout
import DiffableWeb

/// Apple's "Insertion Sort Visualization" (Implementing Modern Collection Views): rows of
/// coloured nodes sort themselves in parallel, one insertion per row every 125 ms, each step a
/// changeset of moves only, animated. When every row ascends, a pause, then a fresh shuffle,
/// applied without animation, and the sort starts again.
///
/// The sort runs as a job only while the list is started and someone watches it: a session
/// nobody looks at costs no CPU. The rows are the list's items (section `row-<r>`, node
/// `row-<r>-node-<v>`), saved with them across restarts; the state holds what the items do
/// not say: started or not, and the counters.
public struct InsertionSort: BuiltInList, BackgroundWork, PageState, SharedCells {
    public static let name = "insertion-sort"
    public static let title = "Insertion sort"
    public static let summary = "Rows of coloured nodes sort themselves in parallel, one insertion at a time."
    public static let pageTemplate = "demos/insertion-sort"
    public static let cellTemplate = "cells/sort-node"
    /// Rows (sections), and nodes in each (values 0…nodeCount − 1).
    public static let rowCount = 16
    public static let nodeCount = 12

    /// How fast it sorts (shared by every session; tests go faster).
    public struct Pace: Sendable {
        /// Between two steps.
        let step: Duration
        /// Between the step that sorts the last row and the next shuffle.
        let pause: Duration

        public init(step: Duration = .milliseconds(125), pause: Duration = .seconds(1)) {
            self.step = step
            self.pause = pause
        }
    }

    @Shared var pace: Pace
    /// Start and Stop: whether the sort runs (while someone watches).
    var sorting = false
    /// The last step left every row ascending: the next thing to come is the pause and a shuffle.
    var sorted = false
    /// Steps made and shuffles applied, for scripts.
    var steps = 0
    var shuffles = 0

    public enum Action: WebListAction {
        case start
        case stop

        public static let descriptions = [
            "start": "Sort: one insertion in every unsorted row every 125 ms (moves only, animated); once all are sorted, a pause and a fresh shuffle (not animated)",
            "stop": "Stop sorting (the sort uses no CPU while stopped, or while nobody watches)",
        ]
    }

    public struct Cell: Encodable {
        /// What a person reads: the value counted from 1.
        let number: Int
        let label: String
        /// The node's colour: its value ÷ the node count of a turn, in degrees.
        let hue: Int
    }

    public struct PageValues: Encodable {
        let sorter: String
    }

    public init() {}

    /// A list sorting at `pace` (tests).
    public init(pace: Pace) {
        _pace = Shared(wrappedValue: pace)
    }

    /// The descriptor of a sort at `pace` (the built-in one: a step every 125 ms, 1 s before a shuffle).
    public static func descriptor(pace: Pace = Pace()) throws -> DemoDescriptor {
        try descriptor(sharing: [pace])
    }

    /// Every row shuffled (a new session opens on a sort to make, stopped).
    public func initialSnapshot() throws -> Snapshot<String, String> {
        var generator = SystemRandomNumberGenerator()
        return SortingRows.shuffled(rows: Self.rowCount, nodes: Self.nodeCount, using: &generator)
    }

    public func layout() -> CompositionalLayout { NodeRows.layout(nodes: Self.nodeCount) }

    public func cell(for item: String) -> Cell? {
        guard let node = SortingRows.Node(item) else { return nil }
        return Cell(number: node.value + 1, label: "\(node.value + 1) of \(Self.nodeCount), row \(node.row + 1)",
                    hue: node.value * 360 / Self.nodeCount)
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .start: sorting = true
        case .stop: sorting = false
        }
    }

    /// One step: the next insertion of every row that does not ascend (moves only).
    mutating func step(_ list: inout Snapshot<String, String>) throws {
        if try SortingRows.step(&list) > 0 { steps += 1 }
        sorted = SortingRows.isSorted(list)
    }

    /// Every row shuffled afresh (and any row or node a script took out back in).
    mutating func shuffle(_ list: inout Snapshot<String, String>, using generator: inout some RandomNumberGenerator) {
        list = SortingRows.shuffled(rows: Self.rowCount, nodes: Self.nodeCount, using: &generator)
        sorted = false
        shuffles += 1
    }

    /// While started and watched: a step every `pace.step` until every row ascends; then,
    /// after `pace.pause`, a shuffle shown at once, and the next round's steps.
    public func jobs(_ activity: ListActivity<String>) -> [ListJob<Self>] {
        guard activity.watchers > 0, sorting else { return [] }
        let pace = pace
        if sorted {
            return [ListJob("shuffle \(shuffles + 1)") { list in
                guard await list.sleep(for: pace.pause) else { return }
                await list.update(animatingDifferences: false) { state, items in
                    var generator = SystemRandomNumberGenerator()
                    state.shuffle(&items, using: &generator)
                }
            }]
        }
        return [ListJob("sort \(shuffles)") { list in
            while await list.sleep(for: pace.step) {
                await list.update { state, items in try state.step(&items) }
            }
        }]
    }

    /// Stable while the sort runs (the page's status line is polite, not a ticker): the steps
    /// are in ``details(of:)``.
    public func status(of list: Snapshot<String, String>) -> String {
        switch (sorting, SortingRows.isSorted(list)) {
        case (true, false): "Sorting"
        case (true, true): "Sorted; a new shuffle follows"
        case (false, false): "Stopped"
        case (false, true): "Stopped; sorted"
        }
    }

    public func details(of list: Snapshot<String, String>) -> String {
        "\(steps.grouped) steps · \(shuffles.grouped) shuffles"
    }

    public var pageValues: PageValues { PageValues(sorter: sorting ? "sorting" : "stopped") }
}
