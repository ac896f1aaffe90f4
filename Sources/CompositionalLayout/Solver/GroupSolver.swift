/// A supplementary attached to a leaf slot of a solved group, in group coordinates.
struct SlotSupplementary: Sendable, Equatable {
    var leaf: Int
    var kind: String
    var frame: LayoutRect
    var zIndex: Int
}

/// Solves one group instance: the frames of its leaf slots relative to the group's origin.
///
/// Run without measured sizes it produces the section's *template*, which the section solver
/// offsets for every repetition of the group; run with the measured sizes of one repetition's
/// items it produces that repetition's own frames (self-sizing).
struct GroupSolver {
    /// Measured sizes by section-local item index, or `nil` for the template.
    let measured: [Int: LayoutPixelSize]?
    /// The section-local index of the item in leaf slot 0.
    let firstItem: Int

    /// Leaf slots (item frames), depth-first, leading first, relative to the group's origin.
    private(set) var leaves: [LayoutRect] = []
    /// Item-anchored supplementaries, in leaf order.
    private(set) var supplementaries: [SlotSupplementary] = []
    /// Per leaf slot, the axes its item sizes itself on.
    private(set) var leafSizing: [SelfSizingAxes] = []
    /// Whether any dimension met was `.estimated` (so measured sizes can matter).
    private(set) var sawEstimated = false

    /// Above this many slots a single group is certainly a mistake (a zero-sized subitem repeated
    /// "while it fits"); the fill stops there instead of looping for ever.
    static let maximumRepetitions = 10_000

    /// Tolerance for "the next subitem still fits", so that five `0.2` fractions fill a row
    /// despite floating-point rounding.
    static let fitTolerance = 0.001

    init(measured: [Int: LayoutPixelSize]?, firstItem: Int) {
        self.measured = measured
        self.firstItem = firstItem
    }

    /// Lays out `group` whose frame size was resolved to `proposed` (estimates standing in on
    /// estimated axes). Appends its leaves relative to its own origin and returns its final size,
    /// which differs from `proposed` only on estimated axes (sized to fit the content).
    mutating func layout(_ group: LayoutGroup, proposed: LayoutPixelSize) -> LayoutPixelSize {
        let widthEstimated = group.layoutSize.widthDimension.isEstimated
        let heightEstimated = group.layoutSize.heightDimension.isEstimated
        if widthEstimated || heightEstimated { sawEstimated = true }
        let insets = Self.effectiveInsets(group.contentInsets, widthEstimated: widthEstimated, heightEstimated: heightEstimated)
        let content = LayoutPixelSize(
            width: max(0, proposed.width - insets.horizontal),
            height: max(0, proposed.height - insets.vertical)
        )

        if case .custom(let provider) = group.content {
            let slots = provider(LayoutGroupCustomEnvironment(container: LayoutContainer(width: content.width, height: content.height)))
            for slot in slots {
                let f = slot.frame
                leaves.append(LayoutRect(x: f.x + insets.leading, y: f.y + insets.top, width: max(0, f.width), height: max(0, f.height)))
                leafSizing.append([])
            }
            return proposed
        }

        let axis = AxisMapping(group.axis)
        let mainExtent = axis.main(content)
        let crossExtent = axis.cross(content)
        let mainEstimated = group.axis == .horizontal ? widthEstimated : heightEstimated
        let crossEstimated = group.axis == .horizontal ? heightEstimated : widthEstimated
        let spacingMin = group.interItemSpacing?.spacing ?? 0
        let spacingFlexible = group.interItemSpacing?.isFlexible ?? false

        // Which subitems, and with which forced length along the axis.
        var children: [LayoutSubitem] = []
        var forcedMain: Double?
        switch group.content {
        case .subitems(let list):
            children = Self.fill(list, axis: axis, content: content, mainExtent: mainExtent,
                                 mainEstimated: mainEstimated, spacing: spacingMin)
        case .fitting(let subitem, let count):
            children = Array(repeating: subitem, count: count)
            if count > 0 && !mainEstimated {
                let edges = axis.mainEdges(subitem.edgeSpacing)
                let share = (mainExtent - spacingMin * Double(count - 1)) / Double(count)
                forcedMain = max(0, share - edges.leading.spacing - edges.trailing.spacing)
            }
        case .repeating(let subitem, let count):
            children = Array(repeating: subitem, count: count)
        case .custom:
            preconditionFailure("handled above")
        }

        // Solve each child at the origin; place afterwards, once all lengths are known.
        var placed: [PlacedChild] = []
        placed.reserveCapacity(children.count)
        for child in children {
            let leafStart = leaves.count
            let supplementaryStart = supplementaries.count
            var size: LayoutPixelSize
            switch child {
            case .item(let item):
                size = itemSize(item, in: content, axis: axis, forcedMain: forcedMain)
                let frame = LayoutRect(x: 0, y: 0, width: size.width, height: size.height).inset(by: Self.effectiveInsets(
                    item.contentInsets,
                    widthEstimated: item.layoutSize.widthDimension.isEstimated,
                    heightEstimated: item.layoutSize.heightDimension.isEstimated))
                leaves.append(frame)
                leafSizing.append(SelfSizingAxes(item.layoutSize))
                for supplementary in item.supplementaryItems {
                    supplementaries.append(SlotSupplementary(
                        leaf: leafStart, kind: supplementary.elementKind,
                        frame: supplementary.frame(attachedTo: frame), zIndex: supplementary.zIndex))
                }
            case .group(let nested):
                var childProposed = nested.layoutSize.resolved(in: content)
                if let forcedMain { axis.setMain(&childProposed, forcedMain) }
                size = layout(nested, proposed: childProposed)
            }
            placed.append(PlacedChild(
                leaves: leafStart..<leaves.count,
                supplementaries: supplementaryStart..<supplementaries.count,
                main: axis.main(size), cross: axis.cross(size),
                mainEdges: axis.mainEdges(child.edgeSpacing), crossEdges: axis.crossEdges(child.edgeSpacing)))
        }

        // Leftover room along the axis is shared by every flexible spacing.
        var used = 0.0
        var flexibleCount = spacingFlexible ? max(0, placed.count - 1) : 0
        for (index, child) in placed.enumerated() {
            used += child.mainEdges.leading.spacing + child.main + child.mainEdges.trailing.spacing
            if index > 0 { used += spacingMin }
            if child.mainEdges.leading.isFlexible { flexibleCount += 1 }
            if child.mainEdges.trailing.isFlexible { flexibleCount += 1 }
        }
        let leftover = mainExtent - used
        let share = (!mainEstimated && flexibleCount > 0 && leftover > 0) ? leftover / Double(flexibleCount) : 0

        var cursor = 0.0
        var crossEnd = 0.0
        for (index, child) in placed.enumerated() {
            if index > 0 { cursor += spacingMin + (spacingFlexible ? share : 0) }
            cursor += child.mainEdges.leading.spacing + (child.mainEdges.leading.isFlexible ? share : 0)
            let mainPosition = cursor
            cursor += child.main + child.mainEdges.trailing.spacing + (child.mainEdges.trailing.isFlexible ? share : 0)

            var crossPosition = child.crossEdges.leading.spacing
            let crossLeftover = crossExtent - (child.crossEdges.leading.spacing + child.cross + child.crossEdges.trailing.spacing)
            if !crossEstimated && crossLeftover > 0 {
                switch (child.crossEdges.leading.isFlexible, child.crossEdges.trailing.isFlexible) {
                case (true, true): crossPosition += crossLeftover / 2
                case (true, false): crossPosition += crossLeftover
                default: break
                }
            }
            crossEnd = max(crossEnd, crossPosition + child.cross + child.crossEdges.trailing.spacing)

            let (dx, dy) = group.axis == .horizontal ? (mainPosition, crossPosition) : (crossPosition, mainPosition)
            shift(child, dx: dx + insets.leading, dy: dy + insets.top)
        }

        var size = proposed
        if mainEstimated { axis.setMain(&size, cursor) }
        if crossEstimated { axis.setCross(&size, crossEnd) }
        return size
    }

    /// An item's room in its group: its layout size, the forced length of `subitem:count:`, and
    /// measured lengths on its estimated axes.
    private mutating func itemSize(_ item: LayoutItem, in content: LayoutPixelSize, axis: AxisMapping, forcedMain: Double?) -> LayoutPixelSize {
        let widthEstimated = item.layoutSize.widthDimension.isEstimated
        let heightEstimated = item.layoutSize.heightDimension.isEstimated
        var size = item.layoutSize.resolved(in: content)
        if widthEstimated || heightEstimated {
            sawEstimated = true
            if let measured, let m = measured[firstItem + leaves.count] {
                if widthEstimated { size.width = m.width }
                if heightEstimated { size.height = m.height }
            }
        }
        if let forcedMain { axis.setMain(&size, forcedMain) }
        return size
    }

    private mutating func shift(_ child: PlacedChild, dx: Double, dy: Double) {
        guard dx != 0 || dy != 0 else { return }
        for i in child.leaves {
            leaves[i].x += dx
            leaves[i].y += dy
        }
        for i in child.supplementaries {
            supplementaries[i].frame.x += dx
            supplementaries[i].frame.y += dy
        }
    }

    /// UIKit's rule for `subitems:`: every subitem once, then again in order while the next fits.
    private static func fill(
        _ list: [LayoutSubitem], axis: AxisMapping, content: LayoutPixelSize,
        mainExtent: Double, mainEstimated: Bool, spacing: Double
    ) -> [LayoutSubitem] {
        guard !list.isEmpty, !mainEstimated else { return list }
        var children: [LayoutSubitem] = []
        var cursor = 0.0
        var index = 0
        while children.count < maximumRepetitions {
            let subitem = list[index % list.count]
            let edges = axis.mainEdges(subitem.edgeSpacing)
            let length = axis.main(subitem.layoutSize.resolved(in: content)) + edges.leading.spacing + edges.trailing.spacing
            let end = (children.isEmpty ? 0 : cursor + spacing) + length
            if index >= list.count {
                if end > mainExtent + fitTolerance { break }
                // A subitem that takes no room would "fit" for ever.
                if length + spacing <= 0 { break }
            }
            children.append(subitem)
            cursor = end
            index += 1
        }
        return children
    }

    /// Content insets are ignored along estimated axes (UIKit documents the same).
    static func effectiveInsets(_ insets: DirectionalEdgeInsets, widthEstimated: Bool, heightEstimated: Bool) -> DirectionalEdgeInsets {
        DirectionalEdgeInsets(
            top: heightEstimated ? 0 : insets.top,
            leading: widthEstimated ? 0 : insets.leading,
            bottom: heightEstimated ? 0 : insets.bottom,
            trailing: widthEstimated ? 0 : insets.trailing
        )
    }
}

/// A solved child of a group, waiting to be placed.
private struct PlacedChild {
    var leaves: Range<Int>
    var supplementaries: Range<Int>
    var main: Double
    var cross: Double
    var mainEdges: (leading: LayoutSpacing, trailing: LayoutSpacing)
    var crossEdges: (leading: LayoutSpacing, trailing: LayoutSpacing)
}
