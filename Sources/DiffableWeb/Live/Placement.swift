import CompositionalLayout
import DiffableDataSources

/// Where every cell of a snapshot goes for one viewport: the layout solver's frames keyed by
/// the identifiers the browser uses.
struct Placement: Sendable {
    struct Cell: Sendable, Equatable {
        var kind: String        // "item", "header", "footer"
        var section: String
        var index: Int?
        var frame: LayoutRect
    }

    /// Cells in document order (per section: header, items, footer).
    var order: [String] = []
    var cells: [String: Cell] = [:]
    var contentSize = LayoutPixelSize(width: 0, height: 0)
    var result: LayoutResult?

    static func supplementaryID(kind: String, section: String) -> String { "\(kind):\(section)" }

    /// Lays the snapshot out in `container`.
    /// - Complexity: O(n) for n cells (the solver's cost plus one dictionary entry per cell).
    init(snapshot: Snapshot<String, String>, layout: CompositionalLayout, container: LayoutContainer) {
        let sections = snapshot.sectionIdentifiers
        var counts: [Int] = []
        var itemsBySection: [[String]] = []
        for section in sections {
            let items = (try? snapshot.itemIdentifiers(inSection: section)) ?? []
            counts.append(items.count)
            itemsBySection.append(items)
        }
        let result = layout.solve(itemCounts: counts, container: container)
        self.result = result
        contentSize = result.contentSize
        cells.reserveCapacity(snapshot.numberOfItems + sections.count * 2)
        order.reserveCapacity(snapshot.numberOfItems + sections.count * 2)

        var supplementariesBySection: [Int: [LayoutSupplementary]] = [:]
        for supplementary in result.supplementaries where supplementary.indexPath.section >= 0 && supplementary.indexPath.section < sections.count {
            supplementariesBySection[supplementary.indexPath.section, default: []].append(supplementary)
        }
        var flat = 0
        let frames = result.items
        for (sectionIndex, section) in sections.enumerated() {
            let supplementaries = supplementariesBySection[sectionIndex] ?? []
            for supplementary in supplementaries where supplementary.kind != "footer" {
                add(Self.supplementaryID(kind: supplementary.kind, section: section),
                    Cell(kind: supplementary.kind, section: section, index: nil, frame: supplementary.frame))
            }
            for (index, item) in itemsBySection[sectionIndex].enumerated() {
                guard flat < frames.count else { break }
                add(item, Cell(kind: "item", section: section, index: index, frame: frames[frames.startIndex + flat].frame))
                flat += 1
            }
            for supplementary in supplementaries where supplementary.kind == "footer" {
                add(Self.supplementaryID(kind: supplementary.kind, section: section),
                    Cell(kind: supplementary.kind, section: section, index: nil, frame: supplementary.frame))
            }
        }
    }

    init() {}

    private mutating func add(_ id: String, _ cell: Cell) {
        if cells.updateValue(cell, forKey: id) == nil { order.append(id) }
    }
}
