/// The smallest unit of a compositional layout: one cell (UIKit's `NSCollectionLayoutItem`).
///
/// An item is a value: a group keeps the copy it was given, so set `contentInsets` *before*
/// building the group (the seeds' note on `leftThreeRightThree` says the same of UIKit, which
/// copies items into groups).
///
/// ```swift
/// var item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0),
///                                              heightDimension: .fractionalHeight(1.0)))
/// item.contentInsets = .uniform(1)    // leftOneRightThree's 1-px margin
/// ```
public struct LayoutItem: Sendable, Hashable {
    /// The size of the room the item takes in its group.
    public var layoutSize: LayoutSize
    /// Shrinks the item's frame inside its room; neighbours do not move. Ignored on estimated axes.
    public var contentInsets: DirectionalEdgeInsets = .zero
    /// Space outside the item that moves it and its neighbours.
    public var edgeSpacing: LayoutEdgeSpacing?
    /// Supplementary views anchored to the item (badges).
    public var supplementaryItems: [LayoutSupplementaryItem]

    /// Creates an item.
    public init(layoutSize: LayoutSize, supplementaryItems: [LayoutSupplementaryItem] = []) {
        self.layoutSize = layoutSize
        self.supplementaryItems = supplementaryItems
    }
}
