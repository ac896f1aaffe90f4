extension LayoutResult {
    /// The supplementary of `kind` at `path`, or `nil`.
    ///
    /// For a boundary supplementary pass its section and item 0; for an item-anchored one, its
    /// item's path; for the layout's own headers and footers, ``ItemPath/layoutWide``.
    ///
    /// ```swift
    /// let header = result.supplementary(ofKind: LayoutElementKind.sectionHeader, at: ItemPath(section: 2, item: 0))
    /// ```
    /// - Complexity: O(b) for b boundary supplementaries of the section, plus O(a) for the
    ///   supplementaries of one group when looking up an item-anchored one.
    public func supplementary(ofKind kind: String, at path: ItemPath) -> LayoutSupplementary? {
        if path.section == ItemPath.layoutWide.section {
            return layoutSupplementaryIndices.lazy.map { storedSupplementaries[$0] }.first { $0.kind == kind }
        }
        guard sections.indices.contains(path.section) else { return nil }
        let section = sections[path.section]
        if path.item == 0, let i = section.boundarySupplementaries.first(where: { storedSupplementaries[$0].kind == kind }) {
            return storedSupplementaries[i]
        }
        guard path.item >= 0, path.item < section.itemCount else { return nil }
        switch section.items {
        case .repeated(let groups):
            guard groups.supplementaries.contains(where: { $0.kind == kind }) else { return nil }
            var candidates: [LayoutSupplementary] = []
            groups.appendSupplementaries(ofGroup: path.item / groups.leavesPerGroup, section: section.index, to: &candidates)
            return candidates.first { $0.kind == kind && $0.indexPath == path }
        case .measured(let groups):
            guard groups.hasSupplementaries else { return nil }
            var candidates: [LayoutSupplementary] = []
            groups.appendSupplementaries(ofGroup: path.item / groups.leavesPerGroup, section: section.index, to: &candidates)
            return candidates.first { $0.kind == kind && $0.indexPath == path }
        case .stored(let storage):
            guard storage.supplementariesPerGroup > 0, storage.leavesPerGroup > 0 else { return nil }
            let group = path.item / storage.leavesPerGroup
            let start = storage.supplementaryStart + group * storage.supplementariesPerGroup
            let end = min(start + storage.supplementariesPerGroup, storage.supplementaryStart + storage.supplementaryCount)
            guard start < end else { return nil }
            return storedSupplementaries[start..<end].first { $0.kind == kind && $0.indexPath == path }
        }
    }

    /// Where a supplementary is drawn when the content is scrolled to `contentOffsetY`.
    ///
    /// An unpinned supplementary stays at its frame. A pinned header sticks to the top of the
    /// viewport while its section scrolls under it, never above its resting place and never
    /// below the section's end (it is pushed up by the end of its section, as in UIKit). A pinned
    /// footer sticks to the bottom of the viewport (the container's height) in the same way.
    ///
    /// ```swift
    /// let header = result.supplementary(ofKind: "header", at: ItemPath(section: 0, item: 0))!
    /// result.pinnedFrame(of: header, contentOffsetY: 1_200).y
    /// ```
    /// - Complexity: O(1)
    public func pinnedFrame(of supplementary: LayoutSupplementary, contentOffsetY: Double) -> LayoutRect {
        guard supplementary.isPinned, sections.indices.contains(supplementary.indexPath.section) else {
            return supplementary.frame
        }
        let band = sections[supplementary.indexPath.section].frame
        var frame = supplementary.frame
        if supplementary.alignment?.isBottom == true {
            let stuck = contentOffsetY + container.height - frame.height
            frame.y = max(band.minY, min(frame.y, stuck))
        } else {
            let stuck = contentOffsetY
            frame.y = max(frame.y, min(stuck, band.maxY - frame.height))
        }
        return frame
    }

    /// The pinned frame of the supplementary of `kind` in `section` (see ``pinnedFrame(of:contentOffsetY:)``).
    ///
    /// ```swift
    /// result.pinnedFrame(ofKind: LayoutElementKind.sectionHeader, section: 3, contentOffsetY: scrollY)
    /// ```
    /// - Complexity: O(b) for b boundary supplementaries of the section.
    public func pinnedFrame(ofKind kind: String, section: Int, contentOffsetY: Double) -> LayoutRect? {
        supplementary(ofKind: kind, at: ItemPath(section: section, item: 0)).map {
            pinnedFrame(of: $0, contentOffsetY: contentOffsetY)
        }
    }
}
