// Building and editing an outline: append, insert, delete, expand, collapse.

extension SectionSnapshot {
    /// Appends items as the last children of `parent`, or as roots when `parent` is `nil`.
    /// - Throws: ``SnapshotError`` for an unknown parent or a duplicate item.
    /// - Complexity: O(k).
    public mutating func append(_ items: [ItemID], to parent: ItemID? = nil) throws(SnapshotError) {
        if let parent, nodes[parent] == nil { throw .unknownItems(of: [parent]) }
        try validateNew(items)
        for item in items { nodes[item] = Node(parent: parent) }
        if let parent { nodes[parent]?.children.append(contentsOf: items) } else { rootItems.append(contentsOf: items) }
    }

    /// Appends another section snapshot's roots (with their subtrees and expansion state)
    /// as the last children of `parent`, or as roots.
    /// - Throws: ``SnapshotError`` for an unknown parent or any item already present.
    public mutating func append(_ snapshot: SectionSnapshot, to parent: ItemID? = nil) throws(SnapshotError) {
        if let parent, nodes[parent] == nil { throw .unknownItems(of: [parent]) }
        try validateNew(snapshot.items)
        graft(snapshot, under: parent)
        if let parent { nodes[parent]?.children.append(contentsOf: snapshot.rootItems) } else { rootItems.append(contentsOf: snapshot.rootItems) }
    }

    /// Inserts items as siblings just before `item`.
    /// - Throws: ``SnapshotError`` for an unknown anchor, a duplicate, or inserting relative to itself.
    /// - Complexity: O(k + siblings).
    public mutating func insert(_ items: [ItemID], before item: ItemID) throws(SnapshotError) {
        try insert(items, relativeTo: item, after: false)
    }

    /// Inserts items as siblings just after `item`.
    /// - Throws: as ``insert(_:before:)-([ItemID],_)``.
    public mutating func insert(_ items: [ItemID], after item: ItemID) throws(SnapshotError) {
        try insert(items, relativeTo: item, after: true)
    }

    /// Inserts another section snapshot's roots (with their subtrees) just before `item`.
    public mutating func insert(_ snapshot: SectionSnapshot, before item: ItemID) throws(SnapshotError) {
        try insert(snapshot, relativeTo: item, after: false)
    }

    /// Inserts another section snapshot's roots (with their subtrees) just after `item`.
    public mutating func insert(_ snapshot: SectionSnapshot, after item: ItemID) throws(SnapshotError) {
        try insert(snapshot, relativeTo: item, after: true)
    }

    /// Removes items and all their descendants.
    /// - Throws: ``SnapshotError/unknownItems(_:)``; nothing is removed then.
    /// - Complexity: O(removed + siblings).
    public mutating func delete(_ items: [ItemID]) throws(SnapshotError) {
        let unknown = items.filter { nodes[$0] == nil }
        if !unknown.isEmpty { throw .unknownItems(of: unknown) }
        for item in items {
            guard let node = nodes[item] else { continue }  // already gone with an ancestor
            if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == item } } else { rootItems.removeAll { $0 == item } }
            var doomed: [ItemID] = []
            walk([item], visibleOnly: false) { doomed.append($0) }
            for gone in doomed { nodes[gone] = nil }
        }
    }

    /// Removes everything.
    public mutating func deleteAll() {
        self = SectionSnapshot()
    }

    /// Expands parents so their children show. Expanding a childless item is allowed (it
    /// shows its children once it has some).
    /// - Throws: ``SnapshotError/unknownItems(_:)``; nothing changes then.
    public mutating func expand(_ items: [ItemID]) throws(SnapshotError) {
        try setExpanded(items, true)
    }

    /// Collapses parents so their descendants hide.
    /// - Throws: ``SnapshotError/unknownItems(_:)``; nothing changes then.
    public mutating func collapse(_ items: [ItemID]) throws(SnapshotError) {
        try setExpanded(items, false)
    }

    // MARK: Helpers

    private mutating func setExpanded(_ items: [ItemID], _ expanded: Bool) throws(SnapshotError) {
        let unknown = items.filter { nodes[$0] == nil }
        if !unknown.isEmpty { throw .unknownItems(of: unknown) }
        for item in items { nodes[item]?.isExpanded = expanded }
    }

    private func validateNew(_ items: [ItemID]) throws(SnapshotError) {
        var seen = Set<ItemID>(minimumCapacity: items.count)
        var duplicates: [ItemID] = []
        for item in items where !seen.insert(item).inserted || nodes[item] != nil { duplicates.append(item) }
        if !duplicates.isEmpty { throw .duplicateItems(of: duplicates) }
    }

    /// Copies another snapshot's nodes in, re-parenting its roots under `parent`.
    private mutating func graft(_ snapshot: SectionSnapshot, under parent: ItemID?) {
        for (item, var node) in snapshot.nodes {
            if node.parent == nil { node.parent = parent }
            nodes[item] = node
        }
    }

    /// The sibling list an item belongs to, and the item's index in it.
    private func siblings(of item: ItemID) -> (parent: ItemID?, index: Int)? {
        guard let node = nodes[item] else { return nil }
        let list = node.parent.flatMap { nodes[$0]?.children } ?? rootItems
        guard let index = list.firstIndex(of: item) else { return nil }
        return (node.parent, index)
    }

    private mutating func insertSiblings(_ items: [ItemID], parent: ItemID?, at index: Int) {
        if let parent { nodes[parent]?.children.insert(contentsOf: items, at: index) } else { rootItems.insert(contentsOf: items, at: index) }
    }

    private mutating func insert(_ items: [ItemID], relativeTo anchor: ItemID, after: Bool) throws(SnapshotError) {
        if items.contains(anchor) { throw .itemRelativeToItself(String(describing: anchor)) }
        guard let (parent, index) = siblings(of: anchor) else { throw .unknownItems(of: [anchor]) }
        try validateNew(items)
        for item in items { nodes[item] = Node(parent: parent) }
        insertSiblings(items, parent: parent, at: after ? index + 1 : index)
    }

    private mutating func insert(_ snapshot: SectionSnapshot, relativeTo anchor: ItemID, after: Bool) throws(SnapshotError) {
        if snapshot.contains(anchor) { throw .itemRelativeToItself(String(describing: anchor)) }
        guard let (parent, index) = siblings(of: anchor) else { throw .unknownItems(of: [anchor]) }
        try validateNew(snapshot.items)
        graft(snapshot, under: parent)
        insertSiblings(snapshot.rootItems, parent: parent, at: after ? index + 1 : index)
    }
}
