import CompositionalLayout
import DiffableDataSources

/// Where every cell of a snapshot goes for one viewport: the layout solver's frames in
/// document order, with the identifiers the browser uses.
///
/// Items are kept in flat arrays (no per-item hashing: an apply to a 10,000-item list lays
/// out and compares every frame, so this is the hot path); only the few headers and footers
/// are found by identifier.
struct Placement: Sendable {
    struct Cell: Sendable, Equatable {
        var id: String
        var kind: String        // "item", "header", "footer"
        var section: String
        /// The section's position in ``Placement/sectionIDs``.
        var sectionIndex: Int
        var index: Int?
        var frame: LayoutRect
    }

    /// Cells in document order (per section: headers, items, footers).
    var cells: [Cell] = []
    /// For each item, in snapshot order (sections concatenated), its position in `cells`.
    var itemCell: [Int] = []
    /// For each section, the flat index of its first item.
    var sectionItemStart: [Int] = []
    /// Headers and footers by identifier (`header:<section>`), as positions in `cells`.
    var supplementaryCell: [String: Int] = [:]
    /// Section identifiers in order (a cell carries its section's index).
    var sectionIDs: [String] = []
    var contentSize = LayoutPixelSize(width: 0, height: 0)

    static func supplementaryID(kind: String, section: String) -> String { "\(kind):\(section)" }

    /// Lays the snapshot out in `container`.
    /// - Complexity: O(n) for n cells, with no hashing per item.
    init(snapshot: Snapshot<String, String>, layout: CompositionalLayout, container: LayoutContainer) {
        let sections = snapshot.sectionIdentifiers
        var itemsBySection: [[String]] = []
        itemsBySection.reserveCapacity(sections.count)
        for section in sections { itemsBySection.append((try? snapshot.itemIdentifiers(inSection: section)) ?? []) }
        let result = layout.solve(itemCounts: itemsBySection.map(\.count), container: container)
        contentSize = result.contentSize
        cells.reserveCapacity(snapshot.numberOfItems + sections.count * 2)
        itemCell.reserveCapacity(snapshot.numberOfItems)

        var supplementariesBySection: [Int: [LayoutSupplementary]] = [:]
        for supplementary in result.supplementaries where supplementary.indexPath.section >= 0 && supplementary.indexPath.section < sections.count {
            supplementariesBySection[supplementary.indexPath.section, default: []].append(supplementary)
        }
        let frames = result.items
        var flat = 0
        sectionIDs = sections
        for (sectionIndex, section) in sections.enumerated() {
            sectionItemStart.append(flat)
            let supplementaries = supplementariesBySection[sectionIndex] ?? []
            for supplementary in supplementaries where supplementary.kind != "footer" {
                addSupplementary(supplementary, section: section, sectionIndex: sectionIndex)
            }
            for (index, item) in itemsBySection[sectionIndex].enumerated() where flat < frames.count {
                itemCell.append(cells.count)
                cells.append(Cell(id: item, kind: "item", section: section, sectionIndex: sectionIndex, index: index,
                                  frame: frames[frames.startIndex + flat].frame))
                flat += 1
            }
            for supplementary in supplementaries where supplementary.kind == "footer" {
                addSupplementary(supplementary, section: section, sectionIndex: sectionIndex)
            }
        }
    }

    init() {}

    private mutating func addSupplementary(_ supplementary: LayoutSupplementary, section: String, sectionIndex: Int) {
        let id = Self.supplementaryID(kind: supplementary.kind, section: section)
        guard supplementaryCell[id] == nil else { return }
        supplementaryCell[id] = cells.count
        cells.append(Cell(id: id, kind: supplementary.kind, section: section, sectionIndex: sectionIndex, index: nil,
                          frame: supplementary.frame))
    }

    /// The cell of the item at an index path of the placed snapshot.
    func itemCell(at path: IndexPath) -> Cell? {
        cellPosition(ofItemAt: path).map { cells[$0] }
    }

    /// The frame of the item at an index path (no copy of the cell's strings).
    func itemFrame(at path: IndexPath) -> LayoutRect? {
        cellPosition(ofItemAt: path).map { cells[$0].frame }
    }

    private func cellPosition(ofItemAt path: IndexPath) -> Int? {
        guard path.section >= 0, path.section < sectionItemStart.count else { return nil }
        let flat = sectionItemStart[path.section] + path.item
        guard flat >= 0, flat < itemCell.count else { return nil }
        return itemCell[flat]
    }
}

import Foundation
