extension LayoutResult {
    /// The elements whose frames intersect `rect`: items, supplementaries and decorations.
    ///
    /// This is the query for virtualization: pass the viewport plus a margin and render only what
    /// comes back. Sections are found by binary search over their vertical bands, and within a
    /// section the groups by binary search along its scroll axis, so the cost does not depend on
    /// the number of items outside the rect.
    ///
    /// An orthogonal section scrolls on its own: its items are tested against `rect` moved right
    /// by that section's horizontal scroll offset (`orthogonalOffsets[section]`, 0 by default), and
    /// are returned at their unscrolled frames.
    ///
    /// Pinned supplementaries are returned at their resting frames; use
    /// ``pinnedFrame(of:contentOffsetY:)`` for where they stick.
    ///
    /// ```swift
    /// let viewport = LayoutRect(x: 0, y: scrollY - 200, width: 390, height: 844 + 400)
    /// for element in result.frames(in: viewport) { … }
    /// ```
    /// - Complexity: O(k + log n) for k elements returned and n groups (plus the boundary
    ///   supplementaries and decorations of the sections the rect crosses).
    public func frames(in rect: LayoutRect, orthogonalOffsets: [Int: Double] = [:]) -> [LayoutElement] {
        var found: [LayoutElement] = []
        for i in layoutSupplementaryIndices where supplementaries[i].frame.intersects(rect) {
            found.append(supplementaries[i].element)
        }
        for s in sectionIndices(intersectingFrom: rect.minY, to: rect.maxY) {
            let section = sections[s]
            for d in section.decorations where decorations[d].frame.intersects(rect) {
                found.append(decorations[d].element)
            }
            for b in section.boundarySupplementaries where supplementaries[b].frame.intersects(rect) {
                found.append(supplementaries[b].element)
            }
            appendItems(of: section, in: rect, orthogonalOffset: orthogonalOffsets[s] ?? 0, to: &found)
        }
        return found
    }

    /// The indices of the sections whose elements may reach into the vertical range `minY ..< maxY`.
    ///
    /// ```swift
    /// for s in result.sectionIndices(intersectingFrom: scrollY, to: scrollY + 844) { … }
    /// ```
    /// - Complexity: O(log s + k) for s sections and k returned.
    public func sectionIndices(intersectingFrom minY: Double, to maxY: Double) -> Range<Int> {
        let first = Self.firstIndex(in: sectionHigh, 0..<sectionHigh.count, above: minY)
        let end = Self.firstIndex(in: sectionLow, first..<sectionLow.count, atLeast: maxY)
        return first..<end
    }

    private func appendItems(of section: SectionLayout, in rect: LayoutRect, orthogonalOffset: Double, to found: inout [LayoutElement]) {
        guard section.groupCount > 0 else { return }
        let query = section.isOrthogonal ? rect.offsetBy(dx: orthogonalOffset, dy: 0) : rect
        let low = section.isOrthogonal ? query.minX : query.minY
        let high = section.isOrthogonal ? query.maxX : query.maxY
        let groups = section.firstGroup..<(section.firstGroup + section.groupCount)
        let firstGroup = Self.firstIndex(in: groupHigh, groups, above: low)
        let endGroup = Self.firstIndex(in: groupLow, firstGroup..<groups.upperBound, atLeast: high)
        guard firstGroup < endGroup else { return }

        let local = (firstGroup - section.firstGroup)..<(endGroup - section.firstGroup)
        let itemStart = local.lowerBound * section.leavesPerGroup
        let itemEnd = min(local.upperBound * section.leavesPerGroup, section.itemCount)
        if itemStart < itemEnd {
            for item in itemStart..<itemEnd {
                let frame = itemFrames[section.firstItem + item]
                if frame.intersects(query) {
                    found.append(LayoutElement(category: .item, indexPath: ItemPath(section: section.index, item: item), frame: frame))
                }
            }
        }
        let perGroup = section.itemSupplementariesPerGroup
        if perGroup > 0 {
            let start = section.itemSupplementaryStart + local.lowerBound * perGroup
            let end = min(section.itemSupplementaryStart + local.upperBound * perGroup,
                          section.itemSupplementaryStart + section.itemSupplementaryCount)
            if start < end {
                for i in start..<end where supplementaries[i].frame.intersects(query) {
                    found.append(supplementaries[i].element)
                }
            }
        }
    }

    /// The first index in `range` whose (non-decreasing) value is greater than `value`.
    static func firstIndex(in values: [Double], _ range: Range<Int>, above value: Double) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if values[mid] > value { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The first index in `range` whose (non-decreasing) value is at least `value`.
    static func firstIndex(in values: [Double], _ range: Range<Int>, atLeast value: Double) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if values[mid] >= value { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
