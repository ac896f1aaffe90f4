extension LayoutResult {
    /// The axes on which the item at `path` sizes itself: those whose dimension is `.estimated`,
    /// where a measured size (``applyMeasuredSizes(_:supplementaries:)``) replaces the estimate.
    /// Empty for a fixed-size item, or one that does not exist.
    ///
    /// The web layer asks which cells the browser should measure, and on which axes.
    ///
    /// ```swift
    /// result.selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 3))   // [.height] for a self-sizing list row
    /// ```
    /// - Complexity: O(1)
    public func selfSizingAxes(ofItemAt path: ItemPath) -> SelfSizingAxes {
        guard sections.indices.contains(path.section) else { return [] }
        let section = sections[path.section]
        guard path.item >= 0, path.item < section.itemCount, !section.leafSizing.isEmpty else { return [] }
        return section.leafSizing[path.item % section.leafSizing.count]
    }

    /// The axes on which a header or footer sizes itself (see ``selfSizingAxes(ofItemAt:)``):
    /// the first boundary supplementary of `path.kind` in `path.section` (−1: the layout's own).
    ///
    /// ```swift
    /// result.selfSizingAxes(of: SupplementaryPath(kind: LayoutElementKind.sectionHeader, section: 0))   // [.height]
    /// ```
    /// - Complexity: O(b) for b boundary supplementaries of the section.
    public func selfSizingAxes(of path: SupplementaryPath) -> SelfSizingAxes {
        if path.section == ItemPath.layoutWide.section {
            return layout.configuration.boundarySupplementaryItems.first { $0.elementKind == path.kind }.map { SelfSizingAxes($0.layoutSize) } ?? []
        }
        guard sections.indices.contains(path.section) else { return [] }
        let section = sections[path.section]
        for (index, sizing) in zip(section.boundarySupplementaries, section.boundarySizing)
        where storedSupplementaries[index].kind == path.kind {
            return sizing
        }
        return []
    }
}
