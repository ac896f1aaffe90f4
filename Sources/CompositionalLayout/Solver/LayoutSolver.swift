/// Solves a whole layout: sections down the page, the layout's headers and footers around them.
///
/// One pass, top to bottom. For each section the group is solved once into a template (its
/// leaf frames relative to its origin). A section with nothing measured keeps the template
/// (``RepeatedGroups``): its cost does not depend on its item count. Otherwise each repetition
/// is stamped, one addition per coordinate per item, and only repetitions holding measured
/// self-sizing items are solved again on their own.
struct LayoutSolver {
    /// How sections keep their items.
    enum ItemStorage: Equatable {
        /// A template where every group is alike, stamped frames otherwise.
        case automatic
        /// Stamped frames everywhere: the reference the template representation is tested and
        /// measured against.
        case stamped
    }

    let storage: ItemStorage
    let layout: CompositionalLayout
    let container: LayoutContainer
    /// Measured sizes split by section, keyed by item index.
    let measuredBySection: [Int: [Int: LayoutPixelSize]]
    /// Measured sizes of headers and footers.
    let measuredSupplementaries: [SupplementaryPath: LayoutPixelSize]
    /// Measured groups to keep, by section, when laying out again after measurements were
    /// applied to them in place: moved to their section's new origin rather than built again.
    var reuse: [Int: MeasuredGroups] = [:]

    /// The flat index of the next section's first item.
    var firstItem = 0
    var itemFrames: [LayoutRect] = []
    var groupLow: [Double] = []
    var groupHigh: [Double] = []
    var sections: [SectionLayout] = []
    var sectionLow: [Double] = []
    var sectionHigh: [Double] = []
    var supplementaries: [LayoutSupplementary] = []
    var decorations: [LayoutDecoration] = []
    var layoutSupplementaryIndices: [Int] = []

    init(
        layout: CompositionalLayout, container: LayoutContainer, measuredSizes: [ItemPath: LayoutPixelSize],
        measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize], storage: ItemStorage = .automatic
    ) {
        self.storage = storage
        self.layout = layout
        self.container = container
        self.measuredSupplementaries = measuredSupplementarySizes
        var split: [Int: [Int: LayoutPixelSize]] = [:]
        for (path, size) in measuredSizes {
            split[path.section, default: [:]][path.item] = size
        }
        measuredBySection = split
    }

    /// A solver for measured sizes already split by section.
    init(
        layout: CompositionalLayout, container: LayoutContainer, measuredBySection: [Int: [Int: LayoutPixelSize]],
        measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize]
    ) {
        self.storage = .automatic
        self.layout = layout
        self.container = container
        self.measuredSupplementaries = measuredSupplementarySizes
        self.measuredBySection = measuredBySection
    }

    mutating func solve(itemCounts: [Int]) -> LayoutResult {
        sections.reserveCapacity(itemCounts.count)
        return solveSections(itemCounts: itemCounts, from: 0, top: solveLayoutHeaders())
    }

    /// Places the layout's headers; returns the height of the band they take at the top.
    mutating func solveLayoutHeaders() -> Double {
        let configuration = layout.configuration
        let full = container.contentSize
        let headerBand = band(of: configuration.boundarySupplementaryItems, section: -1, where: \.isTop, in: full)
        for item in configuration.boundarySupplementaryItems where item.alignment.isTop || !item.alignment.isBottom {
            appendLayoutSupplementary(item, y: 0, in: full)
        }
        return headerBand
    }

    /// Solves sections `start...` (the solver holding what comes before them), section `start`
    /// beginning at `top`, then the layout's footers; returns the whole result.
    mutating func solveSections(itemCounts: [Int], from start: Int, top: Double) -> LayoutResult {
        let configuration = layout.configuration
        let full = container.contentSize
        var y = top
        for index in start..<max(start, itemCounts.count) {
            if index > start { y += configuration.interSectionSpacing }
            y = solveSection(index: index, itemCount: max(0, itemCounts[index]), top: y)
        }

        let footerBand = band(of: configuration.boundarySupplementaryItems, section: -1, where: \.isBottom, in: full)
        for item in configuration.boundarySupplementaryItems where item.alignment.isBottom {
            appendLayoutSupplementary(item, y: y, in: full)
        }
        let contentHeight = y + footerBand

        // Make the per-section extents monotone for binary search (each stored section did its groups').
        Self.makeMonotone(low: &sectionLow, high: &sectionHigh, from: 0)

        return LayoutResult(
            container: container,
            contentSize: LayoutPixelSize(width: full.width, height: contentHeight),
            sections: sections, supplementaries: supplementaries, decorations: decorations,
            itemFrames: itemFrames, groupLow: groupLow, groupHigh: groupHigh,
            sectionLow: sectionLow, sectionHigh: sectionHigh,
            layoutSupplementaryIndices: layoutSupplementaryIndices, layout: layout,
            measuredBySection: measuredBySection, measuredSupplementarySizes: measuredSupplementaries)
    }

    /// Suffix minima of `low[start...]`, prefix maxima of `high[start...]`.
    static func makeMonotone(low: inout [Double], high: inout [Double], from start: Int) {
        var running = -Double.infinity
        for i in start..<high.count {
            running = max(running, high[i])
            high[i] = running
        }
        running = .infinity
        for i in (start..<low.count).reversed() {
            running = min(running, low[i])
            low[i] = running
        }
    }

    /// The height taken by the boundary supplementaries that extend the boundary on one side.
    func band(of items: [LayoutBoundarySupplementaryItem], section: Int, where side: (RectAlignment) -> Bool, in container: LayoutPixelSize) -> Double {
        var height = 0.0
        for item in items where item.extendsBoundary && side(item.alignment) {
            height = max(height, boundarySize(item, section: section, in: container).height)
        }
        return height
    }

    /// A boundary supplementary's size: its layout size, measured lengths on its estimated axes.
    func boundarySize(_ item: LayoutBoundarySupplementaryItem, section: Int, in container: LayoutPixelSize) -> LayoutPixelSize {
        var size = item.layoutSize.resolved(in: container)
        let widthEstimated = item.layoutSize.widthDimension.isEstimated
        let heightEstimated = item.layoutSize.heightDimension.isEstimated
        if (widthEstimated || heightEstimated), let measured = measuredSupplementaries[SupplementaryPath(kind: item.elementKind, section: section)] {
            if widthEstimated { size.width = measured.width }
            if heightEstimated { size.height = measured.height }
        }
        return size
    }

    private mutating func appendLayoutSupplementary(_ item: LayoutBoundarySupplementaryItem, y: Double, in container: LayoutPixelSize) {
        let frame = boundaryFrame(item, section: -1, x: 0, width: container.width, y: y, in: container)
        layoutSupplementaryIndices.append(supplementaries.count)
        supplementaries.append(LayoutSupplementary(
            kind: item.elementKind, indexPath: .layoutWide, frame: frame,
            isPinned: false, alignment: item.alignment, zIndex: item.zIndex))
    }

    /// The frame of a boundary supplementary whose room starts at `y`, aligned in `[x, x + width]`.
    func boundaryFrame(_ item: LayoutBoundarySupplementaryItem, section: Int, x: Double, width: Double, y: Double, in container: LayoutPixelSize) -> LayoutRect {
        let size = boundarySize(item, section: section, in: container)
        let room = LayoutRect(
            x: item.alignment.alignedX(width: size.width, minX: x, available: width) + item.absoluteOffset.x,
            y: y + item.absoluteOffset.y,
            width: size.width, height: size.height)
        return room.inset(by: GroupSolver.effectiveInsets(
            item.contentInsets,
            widthEstimated: item.layoutSize.widthDimension.isEstimated,
            heightEstimated: item.layoutSize.heightDimension.isEstimated))
    }
}
