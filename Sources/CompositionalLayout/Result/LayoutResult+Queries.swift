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
    ///   supplementaries and decorations of the sections the rect crosses, and the items of the
    ///   groups it crosses that lie outside it, e.g. beside a narrow rect).
    public func frames(in rect: LayoutRect, orthogonalOffsets: [Int: Double] = [:]) -> [LayoutElement] {
        var found: [LayoutElement] = []
        for i in layoutSupplementaryIndices where storedSupplementaries[i].frame.intersects(rect) {
            found.append(storedSupplementaries[i].element)
        }
        for s in sectionIndices(intersectingFrom: rect.minY, to: rect.maxY) {
            let section = sections[s]
            for d in section.decorations where decorations[d].frame.intersects(rect) {
                found.append(decorations[d].element)
            }
            for b in section.boundarySupplementaries where storedSupplementaries[b].frame.intersects(rect) {
                found.append(storedSupplementaries[b].element)
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

    /// The items of `section` whose frames meet `rect` (and, with `supplementaries`, their
    /// item-anchored supplementaries that do).
    private func appendItems(of section: SectionLayout, in rect: LayoutRect, orthogonalOffset: Double, to found: inout [LayoutElement]) {
        let query = section.isOrthogonal ? rect.offsetBy(dx: orthogonalOffset, dy: 0) : rect
        let low = section.isOrthogonal ? query.minX : query.minY
        let high = section.isOrthogonal ? query.maxX : query.maxY
        switch section.items {
        case .repeated(let groups):
            let range = groups.groups(from: low, to: high)
            guard !range.isEmpty else { return }
            let perGroup = groups.leavesPerGroup
            for g in range {
                let (ox, oy) = groups.groupOrigin(g)
                let first = g * perGroup
                for k in 0..<groups.filled(g) {
                    let r = groups.leaves[k]
                    let frame = LayoutRect(x: r.x + ox, y: r.y + oy, width: r.width, height: r.height)
                    if frame.intersects(query) {
                        found.append(LayoutElement(category: .item, indexPath: ItemPath(section: section.index, item: first + k), frame: frame))
                    }
                }
            }
            if !groups.supplementaries.isEmpty {
                var candidates: [LayoutSupplementary] = []
                for g in range { groups.appendSupplementaries(ofGroup: g, section: section.index, to: &candidates) }
                for s in candidates where s.frame.intersects(query) { found.append(s.element) }
            }
        case .measured(let groups):
            let range = groups.groups(from: low, to: high)
            guard !range.isEmpty else { return }
            let perGroup = groups.leavesPerGroup
            for g in range {
                let (ox, oy) = groups.groupOrigin(g)
                let first = g * perGroup
                let leaves = groups.leaves(ofGroup: g)
                for k in 0..<groups.filled(g) {
                    let r = leaves[k]
                    let frame = LayoutRect(x: r.x + ox, y: r.y + oy, width: r.width, height: r.height)
                    if frame.intersects(query) {
                        found.append(LayoutElement(category: .item, indexPath: ItemPath(section: section.index, item: first + k), frame: frame))
                    }
                }
            }
            if groups.hasSupplementaries {
                var candidates: [LayoutSupplementary] = []
                for g in range { groups.appendSupplementaries(ofGroup: g, section: section.index, to: &candidates) }
                for s in candidates where s.frame.intersects(query) { found.append(s.element) }
            }
        case .stored(let storage):
            guard let local = storedGroups(storage, from: low, to: high) else { return }
            let itemStart = local.lowerBound * storage.leavesPerGroup
            let itemEnd = min(local.upperBound * storage.leavesPerGroup, section.itemCount)
            if itemStart < itemEnd {
                for item in itemStart..<itemEnd {
                    let frame = itemFrames[storage.firstFrame + item]
                    if frame.intersects(query) {
                        found.append(LayoutElement(category: .item, indexPath: ItemPath(section: section.index, item: item), frame: frame))
                    }
                }
            }
            let perGroup = storage.supplementariesPerGroup
            if perGroup > 0 {
                let start = storage.supplementaryStart + local.lowerBound * perGroup
                let end = min(storage.supplementaryStart + local.upperBound * perGroup,
                              storage.supplementaryStart + storage.supplementaryCount)
                if start < end {
                    for i in start..<end where storedSupplementaries[i].frame.intersects(query) {
                        found.append(storedSupplementaries[i].element)
                    }
                }
            }
        }
    }

    /// The section-local groups of a stored section whose extent along its scroll axis meets
    /// `low ..< high`, or `nil` if none does.
    private func storedGroups(_ storage: StoredItems, from low: Double, to high: Double) -> Range<Int>? {
        guard storage.groupCount > 0 else { return nil }
        let groups = storage.firstGroup..<(storage.firstGroup + storage.groupCount)
        let firstGroup = Self.firstIndex(in: groupHigh, groups, above: low)
        let endGroup = Self.firstIndex(in: groupLow, firstGroup..<groups.upperBound, atLeast: high)
        guard firstGroup < endGroup else { return nil }
        return (firstGroup - storage.firstGroup)..<(endGroup - storage.firstGroup)
    }

    /// For each section, the items whose frames meet `rect`, as one index range: from the first
    /// such item to the last. Sections with none are left out; sections come in order.
    ///
    /// This is the cheap form of ``frames(in:orthogonalOffsets:)`` for a window of cells: no
    /// element is built, and the frames of the items in the ranges come from
    /// ``itemFrame(at:)`` (O(1) each). Items inside a range may miss the rect when it is narrower
    /// than the section (the columns beside it); none outside the ranges meets it. Orthogonal
    /// sections are tested at their scroll offsets, as in ``frames(in:orthogonalOffsets:)``.
    ///
    /// ```swift
    /// for range in result.itemRanges(in: viewport) {
    ///     for item in range.items { render(ItemPath(section: range.section, item: item)) }
    /// }
    /// ```
    /// - Complexity: O(s log n) for the s sections the rect crosses and n groups, plus the items
    ///   skipped at the two ends of each range (at most those of the groups the rect crosses).
    public func itemRanges(in rect: LayoutRect, orthogonalOffsets: [Int: Double] = [:]) -> [SectionItemRange] {
        var ranges: [SectionItemRange] = []
        for s in sectionIndices(intersectingFrom: rect.minY, to: rect.maxY) {
            let section = sections[s]
            let query = section.isOrthogonal ? rect.offsetBy(dx: orthogonalOffsets[s] ?? 0, dy: 0) : rect
            let low = section.isOrthogonal ? query.minX : query.minY
            let high = section.isOrthogonal ? query.maxX : query.maxY
            let candidates: Range<Int>
            switch section.items {
            case .repeated(let groups):
                let range = groups.groups(from: low, to: high)
                candidates = groups.items(inGroups: range)
            case .measured(let groups):
                candidates = groups.items(inGroups: groups.groups(from: low, to: high))
            case .stored(let storage):
                guard let range = storedGroups(storage, from: low, to: high) else { continue }
                candidates = min(range.lowerBound * storage.leavesPerGroup, section.itemCount)
                    ..< min(range.upperBound * storage.leavesPerGroup, section.itemCount)
            }
            // Trim the candidates to the first and last items that meet the rect.
            var first = candidates.lowerBound, end = candidates.upperBound
            while first < end && !section.itemFrame(first, stored: itemFrames).intersects(query) { first += 1 }
            while end > first && !section.itemFrame(end - 1, stored: itemFrames).intersects(query) { end -= 1 }
            if first < end { ranges.append(SectionItemRange(section: s, items: first..<end)) }
        }
        return ranges
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
