extension Snapshot {
    /// A snapshot of these sections, in order, each with its items in order:
    /// `try Snapshot(["fruit": ["apple", "pear"], "vegetables": ["leek"]])`.
    /// - Throws: ``SnapshotError`` naming a section or item that appears twice (UIKit traps).
    public init(_ sections: KeyValuePairs<SectionID, [ItemID]>) throws(SnapshotError) {
        self.init()
        for (section, items) in sections {
            try appendSections([section])
            try appendItems(items, toSection: section)
        }
    }
}

extension Snapshot {
    /// Sorts the items of each section in place (sections keep their order): applied, the
    /// difference is moves only.
    public mutating func sortItems(by areInIncreasingOrder: (ItemID, ItemID) throws -> Bool) throws {
        var sorted = Snapshot()
        for section in sectionIdentifiers {
            let items = try itemIdentifiers(inSection: section).sorted(by: areInIncreasingOrder)
            try sorted.appendSections([section])
            try sorted.appendItems(items, toSection: section)
        }
        self = sorted
    }
}
