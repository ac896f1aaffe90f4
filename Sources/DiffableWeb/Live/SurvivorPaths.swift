import DiffableDataSources
import Foundation

/// Where each surviving item was before a changeset, from the changeset alone.
///
/// Within a section that survives, the items that neither moved nor were inserted keep their
/// relative order (the diff's longest increasing subsequence), so walking the new section in
/// order and the old section's remaining items in order pairs them up; moved items carry their
/// old path. No lookups by identifier: O(n) array work for n items.
struct SurvivorPaths {
    /// Per new section: for each item, its old index path, or `nil` when it is new.
    private var oldPaths: [[IndexPath?]] = []

    init(_ changes: Changeset<String, String>, old: Snapshot<String, String>, new: Snapshot<String, String>) {
        let oldSections = old.sectionIdentifiers, newSections = new.sectionIdentifiers
        // Old items leaving their place (deleted, or moved away), per old section.
        var leaves: [[Bool]] = oldSections.map { [Bool](repeating: false, count: (try? old.numberOfItems(inSection: $0)) ?? 0) }
        for deletion in changes.itemDeletions { Self.mark(&leaves, deletion.indexPath) }
        for move in changes.itemMoves { Self.mark(&leaves, move.from) }
        // New items arriving (inserted: nil; moved in: their old path), per new section.
        var arrivals: [[IndexPath??]] = newSections.map { [IndexPath??](repeating: .none, count: (try? new.numberOfItems(inSection: $0)) ?? 0) }
        for insertion in changes.itemInsertions { Self.set(&arrivals, insertion.indexPath, .some(nil)) }
        for move in changes.itemMoves { Self.set(&arrivals, move.to, .some(move.from)) }

        let oldIndexOfSection = Dictionary(oldSections.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (newSection, id) in newSections.enumerated() {
            var paths = [IndexPath?](repeating: nil, count: arrivals[newSection].count)
            let oldSection = oldIndexOfSection[id]
            var cursor = 0
            for item in paths.indices {
                if let arrival = arrivals[newSection][item] {
                    paths[item] = arrival
                    continue
                }
                // A survivor that stayed in place: the next old item of its section that did not leave.
                guard let oldSection else { continue }
                while cursor < leaves[oldSection].count && leaves[oldSection][cursor] { cursor += 1 }
                if cursor < leaves[oldSection].count {
                    paths[item] = IndexPath(item: cursor, section: oldSection)
                    cursor += 1
                }
            }
            oldPaths.append(paths)
        }
    }

    /// The old index path of the item now at `path`, or `nil` for an inserted item.
    func oldPath(_ path: IndexPath) -> IndexPath? {
        guard path.section >= 0, path.section < oldPaths.count, path.item >= 0, path.item < oldPaths[path.section].count else { return nil }
        return oldPaths[path.section][path.item]
    }

    private static func mark(_ flags: inout [[Bool]], _ path: IndexPath) {
        guard path.section >= 0, path.section < flags.count, path.item >= 0, path.item < flags[path.section].count else { return }
        flags[path.section][path.item] = true
    }

    private static func set(_ slots: inout [[IndexPath??]], _ path: IndexPath, _ value: IndexPath??) {
        guard path.section >= 0, path.section < slots.count, path.item >= 0, path.item < slots[path.section].count else { return }
        slots[path.section][path.item] = value
    }
}
