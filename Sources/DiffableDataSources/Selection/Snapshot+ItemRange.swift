#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Snapshot {
    /// The items from one item to another, both included, in snapshot order (sections
    /// concatenated) whichever comes first: the range a Shift-click selects.
    /// Empty when either item is not in the snapshot.
    /// - Complexity: O(items of the sections the range spans).
    func items(between first: ItemID, and last: ItemID) -> [ItemID] {
        guard let a = indexPath(ofItem: first), let b = indexPath(ofItem: last) else { return [] }
        let (start, end) = a <= b ? (a, b) : (b, a)
        var result: [ItemID] = []
        for section in start.section...end.section {
            let items = items(of: sections.values[section])
            let from = section == start.section ? start.item : 0
            let through = section == end.section ? end.item : items.count - 1
            if from <= through { result.append(contentsOf: items[from...through]) }
        }
        return result
    }
}
