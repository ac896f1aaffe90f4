/// The items of one section as an outline: root items, children at any depth, and which
/// parents are expanded.
///
/// `SectionSnapshot` re-creates UIKit's `NSDiffableDataSourceSectionSnapshot`. A data source
/// shows a section snapshot's ``visibleItems``: the children of a collapsed parent (and all
/// their descendants) are hidden until it is expanded.
///
/// ```swift
/// var outline = SectionSnapshot<String>()
/// try outline.append(["Mountains", "Rivers"])
/// try outline.append(["Everest", "K2"], to: "Mountains")
/// outline.visibleItems                 // ["Mountains", "Rivers"]
/// try outline.expand(["Mountains"])
/// outline.visibleItems                 // ["Mountains", "Everest", "K2", "Rivers"]
/// try outline.level(of: "K2")          // 1
/// ```
///
/// Mutations follow ``Snapshot``'s error rules: duplicates, unknown items and operations
/// relative to an item itself throw a ``SnapshotError`` and change nothing.
public struct SectionSnapshot<ItemID: Hashable & Sendable>: Sendable {
    struct Node: Sendable, Equatable {
        var parent: ItemID?
        var children: [ItemID] = []
        var isExpanded = false
    }

    var nodes: [ItemID: Node] = [:]
    /// The top-level items, in order.
    public internal(set) var rootItems: [ItemID] = []

    /// An empty section snapshot.
    public init() {}
}

extension SectionSnapshot: Equatable {}

extension SectionSnapshot {
    // MARK: Queries

    /// Every item, depth-first (a parent before its children), expanded or not.
    /// - Complexity: O(n).
    public var items: [ItemID] {
        var result: [ItemID] = []
        result.reserveCapacity(nodes.count)
        walk(rootItems, visibleOnly: false) { result.append($0) }
        return result
    }

    /// The items a list shows: every root, and the children of expanded parents whose
    /// ancestors are all expanded. - Complexity: O(n).
    public var visibleItems: [ItemID] {
        var result: [ItemID] = []
        walk(rootItems, visibleOnly: true) { result.append($0) }
        return result
    }

    /// Whether the snapshot contains an item. - Complexity: expected O(1).
    public func contains(_ item: ItemID) -> Bool { nodes[item] != nil }

    /// The item's position in ``items``, or `nil` when absent. - Complexity: O(n).
    public func index(of item: ItemID) -> Int? {
        guard nodes[item] != nil else { return nil }
        var index = 0, found: Int?
        walk(rootItems, visibleOnly: false) { candidate in
            if found == nil { if candidate == item { found = index } else { index += 1 } }
        }
        return found
    }

    /// How deep an item is: 0 for a root item. - Complexity: O(depth).
    /// - Throws: ``SnapshotError/unknownItems(_:)``.
    public func level(of item: ItemID) throws(SnapshotError) -> Int {
        guard var node = nodes[item] else { throw .unknownItems(of: [item]) }
        var level = 0
        while let parent = node.parent, let parentNode = nodes[parent] {
            level += 1
            node = parentNode
        }
        return level
    }

    /// An item's parent, or `nil` for a root item. - Complexity: expected O(1).
    /// - Throws: ``SnapshotError/unknownItems(_:)``.
    public func parent(of item: ItemID) throws(SnapshotError) -> ItemID? {
        guard let node = nodes[item] else { throw .unknownItems(of: [item]) }
        return node.parent
    }

    /// Whether an item is expanded (`false` for an unknown item). - Complexity: expected O(1).
    public func isExpanded(_ item: ItemID) -> Bool { nodes[item]?.isExpanded ?? false }

    /// Whether an item is shown: all its ancestors are expanded (`false` for an unknown item).
    /// - Complexity: O(depth).
    public func isVisible(_ item: ItemID) -> Bool {
        guard var node = nodes[item] else { return false }
        while let parent = node.parent {
            guard let parentNode = nodes[parent], parentNode.isExpanded else { return false }
            node = parentNode
        }
        return true
    }

    /// The children of an item, in order (the roots for `nil`).
    /// - Throws: ``SnapshotError/unknownItems(_:)``.
    public func children(of parent: ItemID?) throws(SnapshotError) -> [ItemID] {
        guard let parent else { return rootItems }
        guard let node = nodes[parent] else { throw .unknownItems(of: [parent]) }
        return node.children
    }

    /// The subtree under `parent` as its own section snapshot: its children become roots,
    /// or `parent` itself is the single root when `includingParent` is true. Expansion state
    /// is kept. - Complexity: O(size of the subtree).
    /// - Throws: ``SnapshotError/unknownItems(_:)``.
    public func snapshot(of parent: ItemID, includingParent: Bool = false) throws(SnapshotError) -> SectionSnapshot {
        guard let parentNode = nodes[parent] else { throw .unknownItems(of: [parent]) }
        var result = SectionSnapshot()
        if includingParent {
            result.rootItems = [parent]
            result.nodes[parent] = Node(parent: nil, children: parentNode.children, isExpanded: parentNode.isExpanded)
        } else {
            result.rootItems = parentNode.children
        }
        walk(parentNode.children, visibleOnly: false) { item in
            guard var node = nodes[item] else { return }
            if node.parent == parent && !includingParent { node.parent = nil }
            result.nodes[item] = node
        }
        return result
    }

    /// A readable tree, one item per line, indented by level, `+`/`-` for collapsed/expanded parents.
    public var visualDescription: String {
        var lines: [String] = []
        func visit(_ items: [ItemID], depth: Int) {
            for item in items {
                guard let node = nodes[item] else { continue }
                let marker = node.children.isEmpty ? "•" : (node.isExpanded ? "-" : "+")
                lines.append(String(repeating: "  ", count: depth) + "\(marker) \(item)")
                visit(node.children, depth: depth + 1)
            }
        }
        visit(rootItems, depth: 0)
        return lines.joined(separator: "\n")
    }

    /// Depth-first, pre-order; with `visibleOnly`, children of collapsed items are skipped.
    func walk(_ items: [ItemID], visibleOnly: Bool, _ body: (ItemID) -> Void) {
        // An explicit stack: outlines can be deeper than the call stack likes.
        var stack: [(items: [ItemID], next: Int)] = [(items, 0)]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].items.count else { stack.removeLast(); continue }
            let item = stack[top].items[stack[top].next]
            stack[top].next += 1
            body(item)
            if let node = nodes[item], !node.children.isEmpty, !visibleOnly || node.isExpanded {
                stack.append((node.children, 0))
            }
        }
    }
}
