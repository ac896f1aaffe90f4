import OrderedCollections
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Reading a snapshot: counts, identifiers, and positions.

extension Snapshot {
    /// The number of items in all sections. - Complexity: O(1).
    public var numberOfItems: Int { index.count }

    /// The number of sections. - Complexity: O(1).
    public var numberOfSections: Int { sections.count }

    /// The section identifiers, in order. - Complexity: O(sections).
    public var sectionIdentifiers: [SectionID] { Array(sections.keys) }

    /// Every item identifier, section after section. - Complexity: O(n).
    @inlinable public var itemIdentifiers: [ItemID] {
        var result: [ItemID] = []
        result.reserveCapacity(numberOfItems)
        for storage in sections.values {
            for chunkID in storage.chunkIDs { result.append(contentsOf: chunks[chunkID].items) }
        }
        return result
    }

    /// The items of one section, in order.
    /// - Throws: ``SnapshotError/unknownSections(_:)`` (UIKit traps).
    /// - Complexity: O(items in the section).
    @inlinable public func itemIdentifiers(inSection identifier: SectionID) throws(SnapshotError) -> [ItemID] {
        guard let storage = sections[identifier] else { throw .unknownSections(of: [identifier]) }
        return items(of: storage)
    }

    /// The number of items in one section.
    /// - Throws: ``SnapshotError/unknownSections(_:)`` (UIKit traps).
    /// - Complexity: O(1).
    @inlinable public func numberOfItems(inSection identifier: SectionID) throws(SnapshotError) -> Int {
        guard let storage = sections[identifier] else { throw .unknownSections(of: [identifier]) }
        return storage.count
    }

    /// The section that contains an item, or `nil`. - Complexity: expected O(1).
    @inlinable public func sectionIdentifier(containingItem identifier: ItemID) -> SectionID? {
        guard let (_, chunkID, _) = indexFind(identifier) else { return nil }
        return chunks[chunkID].section
    }

    /// An item's index among all items of the snapshot (sections concatenated), or `nil`.
    /// - Complexity: expected O(1) lookup plus a scan of one chunk and the chunk lists before it.
    @inlinable public func indexOfItem(_ identifier: ItemID) -> Int? {
        guard let location = location(of: identifier),
              let sectionIndex = sections.index(forKey: location.section) else { return nil }
        var index = indexInSection(location)
        for before in sections.values[..<sectionIndex] { index += before.count }
        return index
    }

    /// A section's index, or `nil`. - Complexity: expected O(1).
    @inlinable public func indexOfSection(_ identifier: SectionID) -> Int? {
        sections.index(forKey: identifier)
    }

    /// An item's index path (section index, index within the section), or `nil`.
    /// - Complexity: as ``indexOfItem(_:)``.
    @inlinable public func indexPath(ofItem identifier: ItemID) -> IndexPath? {
        guard let location = location(of: identifier),
              let sectionIndex = sections.index(forKey: location.section) else { return nil }
        return IndexPath(item: indexInSection(location), section: sectionIndex)
    }

    /// The item at an index path, or `nil` when the path is outside the snapshot.
    /// - Complexity: O(chunks in the section).
    @inlinable public func itemIdentifier(at indexPath: IndexPath) -> ItemID? {
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.section < sections.count else { return nil }
        let storage = sections.values[indexPath.section]
        var remaining = indexPath.item
        guard remaining >= 0, remaining < storage.count else { return nil }
        for chunkID in storage.chunkIDs {
            let items = chunks[chunkID].items
            if remaining < items.count { return items[remaining] }
            remaining -= items.count
        }
        return nil
    }

    /// Whether the snapshot contains an item. - Complexity: expected O(1).
    @inlinable public func contains(item identifier: ItemID) -> Bool { isIndexed(identifier) }

    /// Whether the snapshot contains a section. - Complexity: expected O(1).
    @inlinable public func contains(section identifier: SectionID) -> Bool { sections[identifier] != nil }

    /// Items marked by ``reloadItems(_:)`` since the snapshot was made, in marking order.
    public var reloadedItemIdentifiers: [ItemID] { Array(reloadedItems) }

    /// Items marked by ``reconfigureItems(_:)`` since the snapshot was made, in marking order.
    public var reconfiguredItemIdentifiers: [ItemID] { Array(reconfiguredItems) }

    /// Sections marked by ``reloadSections(_:)`` since the snapshot was made, in marking order.
    public var reloadedSectionIdentifiers: [SectionID] { Array(reloadedSections) }

    /// The same snapshot without reload and reconfigure marks (what a data source keeps
    /// after applying it).
    @inlinable public func clearingMarks() -> Snapshot {
        var copy = self
        copy.reloadedItems = []
        copy.reconfiguredItems = []
        copy.reloadedSections = []
        return copy
    }
}
