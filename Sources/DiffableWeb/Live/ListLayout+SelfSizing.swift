import CompositionalLayout
import DiffableDataSources

// Self-sizing: which cells the browser measures, and the layout taking their measured sizes.
extension ListLayout {
    /// Whether a cell sizes itself: an item whose height is estimated (UIKit's self-sizing
    /// cells; the browser lets it take its content's height and reports it). Headers and footers
    /// keep the heights their layout gives them, estimated or not (a list's header is one line
    /// of a section's title, `.estimated` as in UIKit): the solver would take a measured size of
    /// one, so `POST …/measure` refuses them (``namesSupplementary(_:in:)``), and the layout
    /// route's frames are the streams'.
    /// - Complexity: O(1)
    func fits(_ kind: CellKind, at path: ItemPath) -> Bool {
        kind == .item && result.selfSizingAxes(ofItemAt: path).contains(.height)
    }

    /// Takes measurements made since it was laid out (`table` holds them, and every earlier
    /// one this layout used), in place: O(k log n) for k sizes when nothing else holds this
    /// layout (it is copied first otherwise).
    mutating func applyMeasurements(_ sizes: [(id: String, size: LayoutPixelSize)], table: MeasuredSizes.Table) {
        var items: [ItemPath: LayoutPixelSize] = [:]
        var supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
        for (id, size) in sizes {
            if let path = snapshot.indexPath(ofItem: id) {
                items[ItemPath(section: path.section, item: path.item)] = size
            } else if let path = Self.supplementaryPath(id, in: snapshot) {
                supplementaries[path] = size
            }
        }
        result.applyMeasuredSizes(items, supplementaries: supplementaries)
        measuredGeneration = table.generation
        measuredSignature = table.signature
    }

    /// Whether `id` names a header, footer or decoration of a section `snapshot` has rather than
    /// an item: a cell that never sizes itself (see ``fits(_:at:)``).
    /// - Complexity: O(1) (an index lookup or two).
    static func namesSupplementary(_ id: String, in snapshot: Snapshot<String, String>) -> Bool {
        guard !snapshot.contains(item: id) else { return false }
        if id.hasPrefix(decorationPrefix) {
            let rest = id.dropFirst(decorationPrefix.count)
            guard let colon = rest.firstIndex(of: ":") else { return false }
            return snapshot.indexOfSection(String(rest[rest.index(after: colon)...])) != nil
        }
        return supplementaryPath(id, in: snapshot) != nil
    }

    /// A header's or footer's path from its cell id (`header:<section>`), or `nil`.
    static func supplementaryPath(_ id: String, in snapshot: Snapshot<String, String>) -> SupplementaryPath? {
        guard let colon = id.utf8.firstIndex(of: UInt8(ascii: ":")), !id.hasPrefix(decorationPrefix),
              let section = snapshot.indexOfSection(String(id[id.index(after: colon)...])) else { return nil }
        return SupplementaryPath(kind: CellKind(elementKind: String(id[..<colon])).name, section: section)
    }

    /// The measured sizes of `table` as the solver takes them: items by section index, then
    /// item index; headers and footers by kind and section. Cells no longer in the snapshot are
    /// skipped.
    /// - Complexity: O(min(m, n)) lookups for m measurements and n items (a search that keeps
    ///   a few of many measured items walks the few).
    static func solverSizes(of table: MeasuredSizes.Table, in snapshot: Snapshot<String, String>)
        -> (items: [Int: [Int: LayoutPixelSize]], supplementaries: [SupplementaryPath: LayoutPixelSize]) {
        var items: [Int: [Int: LayoutPixelSize]] = [:]
        var supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
        guard !table.isEmpty else { return (items, supplementaries) }
        if snapshot.numberOfItems < table.count {
            // Fewer items than measurements: look each item up (headers are few: by name).
            for (section, sectionID) in snapshot.sectionIdentifiers.enumerated() {
                let ids = (try? snapshot.itemIdentifiers(inSection: sectionID)) ?? []
                var found: [Int: LayoutPixelSize] = [:]
                found.reserveCapacity(min(ids.count, table.count))
                for (item, id) in ids.enumerated() {
                    if let size = table.sizes[id] { found[item] = size }
                }
                if !found.isEmpty { items[section] = found }
                for kind in [CellKind.header, .footer] {
                    if let size = table.sizes[supplementaryID(kind: kind, section: sectionID)] {
                        supplementaries[SupplementaryPath(kind: kind.name, section: section)] = size
                    }
                }
            }
            return (items, supplementaries)
        }
        for (id, size) in table.sizes {
            if let path = snapshot.indexPath(ofItem: id) {
                items[path.section, default: [:]][path.item] = size
            } else if let path = supplementaryPath(id, in: snapshot) {
                supplementaries[path] = size
            }
        }
        return (items, supplementaries)
    }
}
