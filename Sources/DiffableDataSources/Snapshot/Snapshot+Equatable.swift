import OrderedCollections
extension Snapshot: Equatable {
    /// Same sections in the same order, each with the same items in the same order.
    /// Reload and reconfigure marks are not compared (see the type's documentation).
    /// - Complexity: O(n).
    @inlinable public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
        guard lhs.numberOfItems == rhs.numberOfItems,
              lhs.sections.keys == rhs.sections.keys else { return false }
        for (left, right) in zip(lhs.sections.values, rhs.sections.values) {
            guard left.count == right.count else { return false }
            // Chunk boundaries may differ between equal snapshots: compare item by item.
            var rightItems = right.chunkIDs.lazy.flatMap { rhs.chunks[$0].items }.makeIterator()
            for chunkID in left.chunkIDs {
                for item in lhs.chunks[chunkID].items where rightItems.next() != item { return false }
            }
        }
        return true
    }
}
