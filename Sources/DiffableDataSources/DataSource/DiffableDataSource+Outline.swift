extension DiffableDataSource {
    /// Expands an outline item as a user's tap on its disclosure would: asks
    /// `shouldExpandItem`, calls `willExpandItem`, lets `snapshotForExpandingParent` supply
    /// the children, and applies the section snapshot animated.
    /// - Returns: the update, or `nil` when `shouldExpandItem` declined or it was expanded already.
    /// - Throws: ``DataSourceError/notInOutline(item:)`` when no applied section snapshot holds the item.
    @discardableResult
    public func expand(_ item: ItemID) throws(DataSourceError) -> Update? {
        try setExpanded(item, true)
    }

    /// Collapses an outline item (`shouldCollapseItem`, `willCollapseItem`, then apply).
    /// - Returns: the update, or `nil` when declined or already collapsed.
    @discardableResult
    public func collapse(_ item: ItemID) throws(DataSourceError) -> Update? {
        try setExpanded(item, false)
    }

    private func setExpanded(_ item: ItemID, _ expand: Bool) throws(DataSourceError) -> Update? {
        try applyGate.withLock { _ throws(DataSourceError) -> Update? in
            let (found, handlers) = state.withLock { state in
                (state.sectionSnapshots.first { $0.value.contains(item) }, state.sectionSnapshotHandlers)
            }
            guard let (section, outline) = found else { throw .notInOutline(item: String(describing: item)) }
            guard outline.isExpanded(item) != expand else { return nil }
            var updated = outline
            do throws(SnapshotError) {
                if expand {
                    guard handlers.shouldExpandItem?(item) ?? true else { return nil }
                    handlers.willExpandItem?(item)
                    if let provide = handlers.snapshotForExpandingParent {
                        let subtree = try outline.snapshot(of: item, includingParent: true)
                        var replacement = provide(item, subtree)
                        if replacement.contains(item) { try replacement.expand([item]) }
                        updated = try outline.replacingSubtree(of: item, with: replacement)
                    }
                    try updated.expand([item])
                } else {
                    guard handlers.shouldCollapseItem?(item) ?? true else { return nil }
                    handlers.willCollapseItem?(item)
                    try updated.collapse([item])
                }
            } catch {
                throw .snapshot(error)
            }
            return try commitSectionSnapshot(updated, to: section, animating: true)
        }
    }
}

extension SectionSnapshot {
    /// This outline with `parent`'s children replaced by those of `replacement` (a subtree
    /// rooted at `parent`, as `snapshot(of: parent, includingParent: true)` returns).
    func replacingSubtree(of parent: ItemID, with replacement: SectionSnapshot) throws(SnapshotError) -> SectionSnapshot {
        var result = self
        try result.delete(result.children(of: parent))
        let newChildren: SectionSnapshot
        if replacement.rootItems == [parent] {
            newChildren = try replacement.snapshot(of: parent)
        } else {
            newChildren = replacement
        }
        try result.append(newChildren, to: parent)
        return result
    }
}
