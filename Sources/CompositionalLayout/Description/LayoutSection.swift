/// One section: a group repeated until the items run out, plus headers, footers and
/// backgrounds (UIKit's `NSCollectionLayoutSection`).
///
/// Sections stack vertically. A section's frame spans the container's width; inside it come the
/// top boundary supplementaries, the top content inset, the groups separated by
/// `interGroupSpacing`, the bottom inset and the bottom supplementaries.
///
/// ```swift
/// // The seeds' basic list: full-width rows 44 px tall.
/// let item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalHeight(1.0)))
/// let group = LayoutGroup.horizontal(
///     layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(44)),
///     subitems: [item])
/// var section = LayoutSection(group: group)
/// section.interGroupSpacing = 0
/// ```
public struct LayoutSection: Sendable {
    /// The group the section repeats.
    public var group: LayoutGroup
    /// Space between consecutive groups, along the scroll axis (or the orthogonal axis).
    public var interGroupSpacing: Double = 0
    /// Space between the section's boundaries and its groups.
    public var contentInsets: DirectionalEdgeInsets = .zero
    /// Whether the groups run across the page in a horizontally scrolling row.
    public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior = .none
    /// Headers and footers.
    public var boundarySupplementaryItems: [LayoutBoundarySupplementaryItem] = []
    /// Backgrounds.
    public var decorationItems: [LayoutDecorationItem] = []
    /// Whether headers and footers are inset horizontally like the content (UIKit's default, `true`).
    public var supplementariesFollowContentInsets: Bool = true

    /// Creates a section that repeats `group`.
    public init(group: LayoutGroup) {
        self.group = group
    }
}

/// How an orthogonal section scrolls (UIKit's `UICollectionLayoutSectionOrthogonalScrollingBehavior`).
///
/// Every behaviour but `.none` lays the groups out side by side in one horizontally scrolling
/// row, as tall as the group. The behaviours differ in scroll snapping, which the browser
/// implements (CSS scroll snap); the frames differ only for `.groupPagingCentered`, whose first
/// and last groups are centred in the section's content width.
public enum OrthogonalScrollingBehavior: Sendable, Hashable {
    /// Not orthogonal: the groups stack down the page.
    case none
    /// Free horizontal scrolling.
    case continuous
    /// Free scrolling that comes to rest on a group's leading edge.
    case continuousGroupLeadingBoundary
    /// Scrolls by the width of the container.
    case paging
    /// Scrolls one group at a time, resting on its leading edge.
    case groupPaging
    /// Scrolls one group at a time, resting with the group centred.
    case groupPagingCentered
}
