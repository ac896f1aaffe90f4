/// Settings of a whole layout (UIKit's `UICollectionViewCompositionalLayoutConfiguration`).
///
/// Only vertical scrolling is supported: sections stack down the page (orthogonal sections
/// give horizontal rows inside it).
///
/// ```swift
/// var configuration = CompositionalLayoutConfiguration()
/// configuration.interSectionSpacing = 20
/// configuration.boundarySupplementaryItems = [
///     LayoutBoundarySupplementaryItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(60)),
///                                     elementKind: LayoutElementKind.layoutHeader, alignment: .top)
/// ]
/// ```
public struct CompositionalLayoutConfiguration: Sendable, Hashable {
    /// Space between consecutive sections.
    public var interSectionSpacing: Double = 0
    /// Headers (top-aligned) and footers (bottom-aligned) of the whole layout. Their fractional
    /// sizes are of the container; pinning is not supported for them.
    public var boundarySupplementaryItems: [LayoutBoundarySupplementaryItem] = []

    /// Creates the default configuration.
    public init() {}
}
