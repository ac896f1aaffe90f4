import CompositionalLayout
import DiffableDataSources

/// Which of a layout's cells size themselves: items whose height is `.estimated` (UIKit's
/// self-sizing cells). The browser lets such a cell take its content's height and reports it
/// (`POST …/measure`); the others keep the frames the layout gives them. Headers and footers
/// keep their estimates (one line of a section's title; the solver takes their measurements
/// too, should a browser send them).
struct SelfSizing: Sendable, Equatable {
    /// Per section: whether its items' height is estimated.
    var items: [Bool] = []

    /// Asks the layout's section provider once per section (as a solve does).
    /// - Complexity: O(s · d) for s sections of group descriptions of size d.
    init(layout: CompositionalLayout, sectionCount: Int, container: LayoutContainer) {
        let environment = LayoutEnvironment(container: container)
        items.reserveCapacity(sectionCount)
        for index in 0..<sectionCount {
            items.append(Self.hasEstimatedHeight(.group(layout.sectionProvider(index, environment).group)))
        }
    }

    init() {}

    /// Whether a leaf below `subitem` has an estimated height.
    private static func hasEstimatedHeight(_ subitem: LayoutSubitem) -> Bool {
        switch subitem {
        case .item(let item): item.layoutSize.heightDimension.isEstimated
        case .group(let group): group.subitems.contains(where: hasEstimatedHeight)
        }
    }

    /// Whether a cell of `kind` in section `section` sizes itself.
    func fits(_ kind: CellKind, section: Int) -> Bool {
        guard kind == .item, section >= 0, section < items.count else { return false }
        return items[section]
    }
}

extension ListLayout {
    /// The measured sizes of `table` as the solver takes them: items by index path, headers
    /// and footers by kind and section. Cells no longer in the snapshot are skipped.
    /// - Complexity: O(min(m, n)) lookups for m measurements and n items (a search that keeps
    ///   a few of many measured items walks the few).
    static func solverSizes(of table: MeasuredSizes.Table, in snapshot: Snapshot<String, String>)
        -> (items: [ItemPath: LayoutPixelSize], supplementaries: [SupplementaryPath: LayoutPixelSize]) {
        var items: [ItemPath: LayoutPixelSize] = [:]
        var supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
        guard !table.isEmpty else { return (items, supplementaries) }
        if snapshot.numberOfItems < table.count {
            // Fewer items than measurements: look each item up (headers are few: by name).
            for (section, sectionID) in snapshot.sectionIdentifiers.enumerated() {
                let ids = (try? snapshot.itemIdentifiers(inSection: sectionID)) ?? []
                for (item, id) in ids.enumerated() {
                    if let size = table.sizes[id] { items[ItemPath(section: section, item: item)] = size }
                }
                for kind in [CellKind.header, .footer] {
                    if let size = table.sizes[supplementaryID(kind: kind, section: sectionID)] {
                        supplementaries[SupplementaryPath(kind: kind.name, section: section)] = size
                    }
                }
            }
            return (items, supplementaries)
        }
        items.reserveCapacity(table.count)
        for (id, size) in table.sizes {
            if let path = snapshot.indexPath(ofItem: id) {
                items[ItemPath(section: path.section, item: path.item)] = size
            } else if !id.hasPrefix(decorationPrefix), let colon = id.firstIndex(of: ":"),
                      let section = snapshot.indexOfSection(String(id[id.index(after: colon)...])) {
                let kind = CellKind(elementKind: String(id[..<colon]))
                supplementaries[SupplementaryPath(kind: kind.name, section: section)] = size
            }
        }
        return (items, supplementaries)
    }
}
