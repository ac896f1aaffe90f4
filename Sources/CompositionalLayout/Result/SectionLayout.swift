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

    // Storage indices (internal).
    let firstItem: Int
    let leavesPerGroup: Int
    let firstGroup: Int
    let groupCount: Int
    let boundarySupplementaries: Range<Int>
    let itemSupplementaryStart: Int
    let itemSupplementariesPerGroup: Int
    let itemSupplementaryCount: Int
    let decorations: Range<Int>

    /// Whether the section scrolls horizontally on its own.
    public var isOrthogonal: Bool { orthogonalScrollingBehavior != .none }

    init(
        index: Int, frame: LayoutRect, contentFrame: LayoutRect, itemCount: Int,
        orthogonalScrollingBehavior: OrthogonalScrollingBehavior, scrollableContentWidth: Double,
        firstItem: Int, leavesPerGroup: Int, firstGroup: Int, groupCount: Int,
        boundarySupplementaries: Range<Int>, itemSupplementaryStart: Int, itemSupplementariesPerGroup: Int,
        itemSupplementaryCount: Int, decorations: Range<Int>
    ) {
        self.index = index
        self.frame = frame
        self.contentFrame = contentFrame
        self.itemCount = itemCount
        self.orthogonalScrollingBehavior = orthogonalScrollingBehavior
        self.scrollableContentWidth = scrollableContentWidth
        self.firstItem = firstItem
        self.leavesPerGroup = leavesPerGroup
        self.firstGroup = firstGroup
        self.groupCount = groupCount
        self.boundarySupplementaries = boundarySupplementaries
        self.itemSupplementaryStart = itemSupplementaryStart
        self.itemSupplementariesPerGroup = itemSupplementariesPerGroup
        self.itemSupplementaryCount = itemSupplementaryCount
        self.decorations = decorations
    }
}
