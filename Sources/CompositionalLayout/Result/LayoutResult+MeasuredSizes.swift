// Measured sizes applied to a solved layout in place: only the groups they fall in are solved
// again; what follows moves by a prefix sum, and later sections by their new origins.

extension LayoutResult {
    /// Applies measured sizes of self-sizing items (and headers and footers) to the result in
    /// place, as if it had been solved again with every measurement it holds plus these.
    ///
    /// The browser measures the cells in its window and reports their sizes; the server keeps one
    /// result per list and width and applies each batch here. A vertical section holding measured
    /// items keeps its group template, the groups solved again with their measurements, and a sum
    /// tree of how much longer each of those is than the template (the internal `MeasuredGroups`): a
    /// measurement costs one group solve and O(log g) to place, and every group after it moves
    /// without being touched. The sections after it move to their new origins (their template
    /// solved again, O(1) each whatever their item count).
    ///
    /// The result equals, frame for frame, a fresh ``CompositionalLayout/solve(itemCounts:container:measuredSizes:measuredSupplementarySizes:)``
    /// with the union of all measurements (later ones replacing earlier ones for the same item).
    /// As there, a measured size replaces the estimate only on the axes where the element's
    /// dimension is `.estimated` (see ``selfSizingAxes(ofItemAt:)``); measurements of items that
    /// do not exist are ignored.
    ///
    /// ```swift
    /// var result = layout.solve(itemCounts: [100_000], container: phone)
    /// let screen = [ItemPath(section: 0, item: 40): LayoutPixelSize(width: 390, height: 71.5)]
    /// if result.applyMeasuredSizes(screen) {
    ///     send(result.frames(in: window), result.contentSize)
    /// }
    /// ```
    /// - Parameters:
    ///   - items: measured item sizes.
    ///   - supplementaries: measured header and footer sizes.
    /// - Returns: whether any frame (or the content size) changed; `false` when every size
    ///   equals the one already used, or none is on an estimated axis.
    /// - Complexity: O(k log g) for k measured items in vertical sections of g groups, plus one
    ///   group solve per group they touch, plus O(s) for the s sections from the first one that
    ///   changed (each keeps or rebuilds its template: O(template), not O(items)). Slower paths,
    ///   correct but proportional to a section's items: the first measured item of a section
    ///   (O(g) to build its sum tree), an orthogonal section's items (stored frames, stamped
    ///   again), sizes no sum tree can place (negative or not finite). A measured header or
    ///   footer lays out again from its section.
    @discardableResult
    public mutating func applyMeasuredSizes(
        _ items: [ItemPath: LayoutPixelSize], supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
    ) -> Bool {
        var changed = false
        var from = Int.max                 // the first section to lay out again (−1: the layout's headers)
        var fresh = Set<Int>()             // sections whose measured groups are built again

        for (path, size) in supplementaries where measuredSupplementarySizes[path] != size {
            guard path.section == -1 || sections.indices.contains(path.section) else { continue }
            measuredSupplementarySizes[path] = size
            from = min(from, path.section)
        }

        var bySection: [Int: [(item: Int, size: LayoutPixelSize)]] = [:]
        for (path, size) in items where sections.indices.contains(path.section) && path.item >= 0 {
            let section = sections[path.section]
            // The slots of the last group may take sizes of items beyond the last.
            let perGroup = max(1, section.leafSizing.count)
            guard path.item / perGroup < (section.itemCount + perGroup - 1) / perGroup,
                  measuredBySection[path.section]?[path.item] != size else { continue }
            measuredBySection[path.section, default: [:]][path.item] = size
            bySection[path.section, default: []].append((path.item, size))
        }

        for (s, sizes) in bySection where sections[s].takesMeasurements {
            switch sections[s].items {
            case .measured(var groups):
                sections[s].items = Self.vacant   // so that `groups` holds the only reference
                switch groups.remeasure(sizes, measured: measuredBySection[s] ?? [:]) {
                case .applied(let groupsChanged):
                    if groupsChanged {
                        changed = true
                        from = min(from, s)
                    }
                case .unplaceable:
                    changed = true
                    fresh.insert(s)
                    from = min(from, s)
                }
                sections[s].items = .measured(groups)
            case .repeated:
                // Measured groups are built by laying the section out again, once one of its
                // items is measured.
                let itemCount = sections[s].itemCount
                guard sizes.contains(where: { $0.item < itemCount }) else { continue }
                fresh.insert(s)
                from = min(from, s)
            case .stored:
                // Stamped again (a size for an empty slot of its last group may matter too).
                fresh.insert(s)
                from = min(from, s)
            }
        }
        guard from != Int.max else { return changed }
        let before = self
        layOutAgain(from: from, fresh: fresh)
        return changed || differs(from: before, sectionsFrom: max(from, 0), fresh: fresh)
    }

    /// An empty stand-in for a section's items while they are updated.
    private static let vacant = SectionItems.stored(StoredItems(
        firstFrame: 0, leavesPerGroup: 0, firstGroup: 0, groupCount: 0,
        supplementaryStart: 0, supplementariesPerGroup: 0, supplementaryCount: 0))

    /// Lays out sections `start...` again (from the layout's headers for −1), keeping the measured
    /// groups of the sections not in `fresh` and what comes before `start` as it is.
    ///
    /// - Complexity: O(s) for the sections from `start`, plus the items of the stored sections
    ///   among them and the measured groups built again.
    private mutating func layOutAgain(from start: Int, fresh: Set<Int>) {
        var solver = LayoutSolver(
            layout: layout, container: container, measuredBySection: measuredBySection,
            measuredSupplementarySizes: measuredSupplementarySizes)
        let first = max(start, 0)
        for s in first..<sections.count where !fresh.contains(s) {
            if case .measured(let groups) = sections[s].items { solver.reuse[s] = groups }
        }
        let itemCounts = sections.map(\.itemCount)
        guard start >= 0, start < sections.count else {
            solver.sections.reserveCapacity(sections.count)
            let top = solver.solveLayoutHeaders()
            self = solver.solveSections(itemCounts: itemCounts, from: 0, top: top)
            return
        }
        // Keep what precedes section `start`, moving the storage rather than copying it.
        let section = sections[start]
        let supplementaryCut = section.boundarySupplementaries.lowerBound
        swap(&solver.supplementaries, &storedSupplementaries)
        solver.supplementaries.removeSubrange(supplementaryCut...)
        solver.layoutSupplementaryIndices = layoutSupplementaryIndices.filter { $0 < supplementaryCut }
        swap(&solver.decorations, &decorations)
        solver.decorations.removeSubrange(section.decorations.lowerBound...)
        swap(&solver.itemFrames, &itemFrames)
        swap(&solver.groupLow, &groupLow)
        swap(&solver.groupHigh, &groupHigh)
        if let stored = sections[start...].lazy.compactMap({ Self.storage(of: $0) }).first {
            solver.itemFrames.removeSubrange(stored.firstFrame...)
            solver.groupLow.removeSubrange(stored.firstGroup...)
            solver.groupHigh.removeSubrange(stored.firstGroup...)
        }
        // The earlier sections' search bounds stay valid bounds (see `makeMonotone`).
        solver.sectionLow = Array(sectionLow[..<start])
        solver.sectionHigh = Array(sectionHigh[..<start])
        solver.sections = Array(sections[..<start])
        solver.sections.reserveCapacity(sections.count)
        solver.firstItem = section.firstItem
        self = solver.solveSections(itemCounts: itemCounts, from: start, top: section.frame.minY)
    }

    private static func storage(of section: SectionLayout) -> StoredItems? {
        if case .stored(let storage) = section.items { storage } else { nil }
    }

    /// Whether laying out again moved anything: the layout's own supplementaries, the content
    /// size, and from section `start` the bands, boundary supplementaries and decorations; the
    /// items of the sections built again (their measured groups, or their stored frames).
    ///
    /// - Complexity: O(s + b + d) from `start`, plus the measured groups or items of the
    ///   sections in `fresh`.
    private func differs(from before: LayoutResult, sectionsFrom start: Int, fresh: Set<Int>) -> Bool {
        guard contentSize == before.contentSize, layoutSupplementaries == before.layoutSupplementaries else { return true }
        guard start < sections.count else { return false }
        guard decorations[sections[start].decorations.lowerBound...] == before.decorations[before.sections[start].decorations.lowerBound...]
        else { return true }
        for s in start..<sections.count {
            let (a, b) = (sections[s], before.sections[s])
            guard a == b, storedSupplementaries[a.boundarySupplementaries] == before.storedSupplementaries[b.boundarySupplementaries]
            else { return true }
            guard fresh.contains(s) else { continue }
            if case .measured(let groups) = a.items, case .repeated = b.items {
                // Built from a template section: unchanged if every re-solved group is the template.
                if groups.isTemplateEverywhere { continue }
                return true
            }
            for i in 0..<a.itemCount where a.itemFrame(i, stored: itemFrames) != b.itemFrame(i, stored: before.itemFrames) {
                return true
            }
            guard itemSupplementaries(of: a) == before.itemSupplementaries(of: b) else { return true }
        }
        return false
    }
}

extension MeasuredGroups {
    /// Whether every re-solved group is exactly the template (its frames those of a template section).
    ///
    /// - Complexity: O(m) for m re-solved groups.
    var isTemplateEverywhere: Bool {
        shapes.allSatisfy { g, shape in offsets.value(g) == 0 && sameFrames(shape, as: nil, filled: filled(g)) }
    }
}
