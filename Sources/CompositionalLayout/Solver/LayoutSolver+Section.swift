extension LayoutSolver {
    /// Solves section `index` starting at `top`; returns the y where the section ends.
    mutating func solveSection(index: Int, itemCount: Int, top: Double) -> Double {
        let section = layout.sectionProvider(index, LayoutEnvironment(container: container))
        let full = container.contentSize
        let insets = section.contentInsets
        let content = LayoutPixelSize(width: max(0, full.width - insets.horizontal), height: max(0, full.height - insets.vertical))
        let isOrthogonal = section.orthogonalScrollingBehavior != .none

        // Headers and footers are sized against the content width when they follow the insets.
        let supplementaryArea = section.supplementariesFollowContentInsets
            ? LayoutPixelSize(width: content.width, height: full.height) : full
        let supplementaryX = section.supplementariesFollowContentInsets ? insets.leading : 0
        let topBand = band(of: section.boundarySupplementaryItems, section: index, where: \.isTop, in: supplementaryArea)
        let bottomBand = band(of: section.boundarySupplementaryItems, section: index, where: \.isBottom, in: supplementaryArea)
        let contentTop = top + topBand + insets.top

        // The template: the group solved once, at the origin.
        let proposed = section.group.layoutSize.resolved(in: content)
        var templateSolver = GroupSolver(measured: nil, firstItem: 0)
        let templateSize = templateSolver.layout(section.group, proposed: proposed)
        let template = GroupTemplate(solver: templateSolver, size: templateSize)
        let leafCount = template.leaves.count
        let groupCount = leafCount > 0 ? itemCount / leafCount + (itemCount % leafCount == 0 ? 0 : 1) : 0
        let measured = template.sawEstimated ? measuredBySection[index] : nil

        let firstFrame = itemFrames.count
        let firstGroup = groupLow.count
        let boundaryStart = supplementaries.count
        // Boundary supplementaries need the section's end, known only after the items, yet come
        // first in `supplementaries`: item-anchored ones wait in a buffer.
        var itemSupplementaryBuffer: [LayoutSupplementary] = []

        let leadingX = insets.leading + (section.orthogonalScrollingBehavior == .groupPagingCentered
            ? max(0, (content.width - templateSize.width) / 2) : 0)
        var cursor = 0.0
        var crossExtent = 0.0          // an orthogonal section is as tall as its tallest group
        var minY = Double.infinity, maxY = -Double.infinity

        // Groups holding a measured item are solved on their own; the runs of groups between
        // them are stamped from the template. Without measured sizes, one run covers the section.
        let hasMeasured = measured?.keys.contains { $0 >= 0 && $0 < itemCount } ?? false
        let spacing = section.interGroupSpacing
        let templateStep = (isOrthogonal ? templateSize.width : templateSize.height) + spacing
        // With nothing measured every group is the template: keep the template and compute frames
        // when asked (O(1) here, whatever the item count). Groups must move forward for the
        // queries' searches, so a zero or negative step (or a custom group without slots) stores.
        let keepsTemplate = storage == .automatic && !hasMeasured && leafCount > 0
            && (groupCount <= 1 || (templateStep > 0 && templateStep.isFinite))
        func repetition(_ origin: LayoutPoint) -> RepeatedGroups {
            RepeatedGroups(
                leaves: template.leaves, supplementaries: template.supplementaries, origin: origin,
                step: templateStep, isOrthogonal: isOrthogonal,
                lowOffset: isOrthogonal ? template.bounds.minX : template.bounds.minY,
                highOffset: isOrthogonal ? template.bounds.maxX : template.bounds.maxY,
                groupCount: groupCount, itemCount: itemCount)
        }
        // An empty section keeps its template too (no group to place).
        var repeated: RepeatedGroups? = keepsTemplate && groupCount == 0
            ? repetition(LayoutPoint(x: isOrthogonal ? leadingX : insets.leading, y: contentTop)) : nil
        // A vertical section with measured items keeps its template and its measured groups
        // over it (in a stamped solve, the frames are stamped from those, so both agree bit for bit).
        var measuredGroups: MeasuredGroups?
        if let measured, hasMeasured, !isOrthogonal {
            let origin = LayoutPoint(x: insets.leading, y: contentTop)
            if let reused = reuse.removeValue(forKey: index) {
                measuredGroups = reused.moved(to: origin)
            } else {
                measuredGroups = MeasuredGroups(
                    template: repetition(origin), templateLength: templateSize.height, spacing: spacing,
                    group: section.group, proposed: proposed, measured: measured)
            }
        }
        let keepsMeasured = measuredGroups != nil && storage == .automatic
        var g = 0
        if let measuredGroups {
            g = groupCount   // no run to stamp below
            cursor = measuredGroups.contentLength
            if keepsMeasured {
                // Groups never move backwards, so nothing lies above the first group's lowest
                // point nor below the last group's end plus the longest overhang.
                minY = min(minY, contentTop + measuredGroups.lowest)
                maxY = max(maxY, contentTop + cursor + measuredGroups.overhang)
            } else {
                let extent = Self.stamp(
                    measuredGroups, section: index, frames: &itemFrames, low: &groupLow, high: &groupHigh,
                    supplementaries: &itemSupplementaryBuffer)
                minY = min(minY, extent.minY)
                maxY = max(maxY, extent.maxY)
            }
            crossExtent = templateSize.width
        }
        if !keepsTemplate && !keepsMeasured {
            // Grow the stored frames once for the section (geometrically, as appends would).
            let needed = itemFrames.count + itemCount
            if needed > itemFrames.capacity { itemFrames.reserveCapacity(max(needed, 2 * itemFrames.capacity)) }
        }
        // The measured items in order, for the runs between them (no measured groups kept).
        let measuredIndices = measuredGroups == nil && hasMeasured
            ? (measured?.keys.filter { $0 >= 0 && $0 < itemCount }.sorted() ?? []) : []
        var nextMeasured = 0
        while g < groupCount {
            let measuredGroup = nextMeasured < measuredIndices.count ? measuredIndices[nextMeasured] / leafCount : groupCount
            if measuredGroup > g {
                let run = measuredGroup - g
                let origin = LayoutPoint(x: isOrthogonal ? leadingX + cursor : insets.leading, y: isOrthogonal ? contentTop : contentTop + cursor)
                let firstItemOfRun = g * leafCount
                if keepsTemplate {
                    repeated = repetition(origin)
                } else {
                    Self.stamp(
                        template, count: min(measuredGroup * leafCount, itemCount) - firstItemOfRun, groups: run,
                        step: templateStep, isOrthogonal: isOrthogonal, origin: origin,
                        frames: &itemFrames, low: &groupLow, high: &groupHigh)
                }
                // (A kept template computes its item-anchored supplementaries too.)
                for r in 0..<(keepsTemplate || template.supplementaries.isEmpty ? 0 : run) {
                    let offset = Double(r) * templateStep
                    Self.appendSupplementaries(
                        of: template, section: index, firstItem: firstItemOfRun + r * leafCount, itemCount: itemCount,
                        dx: origin.x + (isOrthogonal ? offset : 0), dy: origin.y + (isOrthogonal ? 0 : offset),
                        to: &itemSupplementaryBuffer)
                }
                let lastOffset = isOrthogonal ? 0 : Double(run - 1) * templateStep
                minY = min(minY, origin.y + template.bounds.minY, origin.y + lastOffset + template.bounds.minY)
                maxY = max(maxY, origin.y + template.bounds.maxY, origin.y + lastOffset + template.bounds.maxY)
                crossExtent = max(crossExtent, isOrthogonal ? templateSize.height : templateSize.width)
                cursor += Double(run) * templateStep
                g = measuredGroup
            } else if let measured {
                let first = g * leafCount
                var solver = GroupSolver(measured: measured, firstItem: first)
                let size = solver.layout(section.group, proposed: proposed)
                let shape = GroupTemplate(solver: solver, size: size)
                let ox = isOrthogonal ? leadingX + cursor : insets.leading
                let oy = isOrthogonal ? contentTop : contentTop + cursor
                for k in 0..<min(leafCount, itemCount - first) {
                    itemFrames.append(shape.leaves[k].offsetBy(dx: ox, dy: oy))
                }
                Self.appendSupplementaries(of: shape, section: index, firstItem: first, itemCount: itemCount, dx: ox, dy: oy, to: &itemSupplementaryBuffer)
                groupLow.append(isOrthogonal ? ox + shape.bounds.minX : oy + shape.bounds.minY)
                groupHigh.append(isOrthogonal ? ox + shape.bounds.maxX : oy + shape.bounds.maxY)
                minY = min(minY, oy + shape.bounds.minY)
                maxY = max(maxY, oy + shape.bounds.maxY)
                crossExtent = max(crossExtent, isOrthogonal ? size.height : size.width)
                cursor += (isOrthogonal ? size.width : size.height) + spacing
                g += 1
                while nextMeasured < measuredIndices.count && measuredIndices[nextMeasured] < g * leafCount { nextMeasured += 1 }
            }
        }
        if groupCount > 0 && measuredGroups == nil { cursor -= spacing }   // no spacing after the last group
        // Items no group can hold (a custom group without slots) get empty frames at the content origin.
        while repeated == nil && !keepsMeasured && itemFrames.count < firstFrame + itemCount {
            itemFrames.append(LayoutRect(x: insets.leading, y: contentTop, width: 0, height: 0))
        }

        let contentHeight = isOrthogonal ? crossExtent : cursor
        let contentBottom = contentTop + contentHeight
        let bottom = contentBottom + insets.bottom + bottomBand
        let frame = LayoutRect(x: 0, y: top, width: full.width, height: bottom - top)

        // Boundary supplementaries, then the item-anchored ones.
        for item in section.boundarySupplementaryItems {
            let y: Double
            if item.alignment.isTop {
                y = top
            } else if item.alignment.isBottom {
                let height = boundarySize(item, section: index, in: supplementaryArea).height
                y = item.extendsBoundary ? bottom - bottomBand : bottom - height
            } else {
                y = contentTop
            }
            let supplementaryFrame = boundaryFrame(item, section: index, x: supplementaryX, width: supplementaryArea.width, y: y, in: supplementaryArea)
            supplementaries.append(LayoutSupplementary(
                kind: item.elementKind, indexPath: ItemPath(section: index, item: 0), frame: supplementaryFrame,
                isPinned: item.pinToVisibleBounds, alignment: item.alignment, zIndex: item.zIndex))
            minY = min(minY, supplementaryFrame.minY)
            maxY = max(maxY, supplementaryFrame.maxY)
        }
        let boundaryEnd = supplementaries.count
        let itemSupplementaryStart = supplementaries.count
        supplementaries.append(contentsOf: itemSupplementaryBuffer)
        for s in itemSupplementaryBuffer {
            minY = min(minY, s.frame.minY)
            maxY = max(maxY, s.frame.maxY)
        }

        let decorationStart = decorations.count
        for item in section.decorationItems {
            let decorationFrame = frame.inset(by: item.contentInsets)
            decorations.append(LayoutDecoration(kind: item.elementKind, section: index, frame: decorationFrame, zIndex: item.zIndex))
            minY = min(minY, decorationFrame.minY)
            maxY = max(maxY, decorationFrame.maxY)
        }

        let items: SectionItems
        if let repeated {
            items = .repeated(repeated)
        } else if keepsMeasured, let measuredGroups {
            items = .measured(measuredGroups)
        } else {
            Self.makeMonotone(low: &groupLow, high: &groupHigh, from: firstGroup)
            items = .stored(StoredItems(
                firstFrame: firstFrame, leavesPerGroup: leafCount, firstGroup: firstGroup, groupCount: groupCount,
                supplementaryStart: itemSupplementaryStart, supplementariesPerGroup: template.supplementaries.count,
                supplementaryCount: itemSupplementaryBuffer.count))
        }
        sectionLow.append(min(minY, frame.minY))
        sectionHigh.append(max(maxY, frame.maxY))
        sections.append(SectionLayout(
            index: index, frame: frame,
            contentFrame: LayoutRect(x: insets.leading, y: contentTop, width: content.width, height: contentHeight),
            itemCount: itemCount,
            orthogonalScrollingBehavior: section.orthogonalScrollingBehavior,
            scrollableContentWidth: isOrthogonal
                ? leadingX + cursor + insets.trailing + (leadingX - insets.leading)
                : full.width,
            firstItem: firstItem, items: items,
            boundarySupplementaries: boundaryStart..<boundaryEnd,
            decorations: decorationStart..<decorations.count,
            takesMeasurements: template.sawEstimated, leafSizing: template.leafSizing,
            boundarySizing: section.boundarySupplementaryItems.map { SelfSizingAxes($0.layoutSize) }))
        firstItem += itemCount
        return bottom
    }
}
