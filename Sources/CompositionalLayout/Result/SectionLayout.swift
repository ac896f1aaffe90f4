/// The solved geometry of one section.
///
/// ```swift
/// let band = result.sections[1].frame      // the vertical band the section occupies
/// ```
public struct SectionLayout: Sendable, Equatable {
    /// The section's index.
    public let index: Int
    /// The band the section occupies: full container width, from its first header to its last footer.
    public let frame: LayoutRect
    /// The area of its groups (inside the content insets; the visible part for an orthogonal section).
    public let contentFrame: LayoutRect
    /// The number of items laid out.
    public let itemCount: Int
    /// How the section scrolls horizontally.
    public let orthogonalScrollingBehavior: OrthogonalScrollingBehavior
    /// For an orthogonal section, the width of its horizontally scrolling content (leading inset,
    /// groups, spacing, trailing inset); for others, the container width.
    public let scrollableContentWidth: Double

    // Storage (internal).
    /// The flat index (over all sections) of its first item.
    let firstItem: Int
    /// Its items: a repeated template, measured groups over it, or stored frames.
    var items: SectionItems
    /// Whether a measured size can change its items (some dimension of its group is estimated).
    let takesMeasurements: Bool
    /// The self-sizing axes of each leaf slot of its group (item `i` is in slot `i % count`).
    let leafSizing: [SelfSizingAxes]
    /// The self-sizing axes of each of its boundary supplementaries, in the same order.
    let boundarySizing: [SelfSizingAxes]
    /// Its boundary supplementaries, as indices into the result's stored supplementaries.
    let boundarySupplementaries: Range<Int>
    /// Its decorations, as indices into the result's decorations.
    let decorations: Range<Int>

    /// Whether the section scrolls horizontally on its own.
    public var isOrthogonal: Bool { orthogonalScrollingBehavior != .none }

    init(
        index: Int, frame: LayoutRect, contentFrame: LayoutRect, itemCount: Int,
        orthogonalScrollingBehavior: OrthogonalScrollingBehavior, scrollableContentWidth: Double,
        firstItem: Int, items: SectionItems, boundarySupplementaries: Range<Int>, decorations: Range<Int>,
        takesMeasurements: Bool = false, leafSizing: [SelfSizingAxes] = [], boundarySizing: [SelfSizingAxes] = []
    ) {
        self.takesMeasurements = takesMeasurements
        self.leafSizing = leafSizing
        self.boundarySizing = boundarySizing
        self.index = index
        self.frame = frame
        self.contentFrame = contentFrame
        self.itemCount = itemCount
        self.orthogonalScrollingBehavior = orthogonalScrollingBehavior
        self.scrollableContentWidth = scrollableContentWidth
        self.firstItem = firstItem
        self.items = items
        self.boundarySupplementaries = boundarySupplementaries
        self.decorations = decorations
    }

    /// Two sections are equal when their public geometry is: index, bands, item count and scrolling.
    /// (Their items' frames are compared by ``LayoutResult``'s equality.)
    public static func == (lhs: SectionLayout, rhs: SectionLayout) -> Bool {
        lhs.index == rhs.index && lhs.frame == rhs.frame && lhs.contentFrame == rhs.contentFrame
            && lhs.itemCount == rhs.itemCount && lhs.orthogonalScrollingBehavior == rhs.orthogonalScrollingBehavior
            && lhs.scrollableContentWidth == rhs.scrollableContentWidth
    }

    /// The frame of its item `i` (0 ≤ i < itemCount), from the template, the measured groups or `stored`.
    ///
    /// - Complexity: O(1); O(log g) for a section with measured groups.
    @inline(__always)
    func itemFrame(_ i: Int, stored: [LayoutRect]) -> LayoutRect {
        switch items {
        case .repeated(let groups): groups.frame(ofItem: i)
        case .measured(let groups): groups.frame(ofItem: i)
        case .stored(let storage): stored[storage.firstFrame + i]
        }
    }
}
