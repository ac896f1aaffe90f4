/// A supplementary view attached to an item, such as a badge (UIKit's `NSCollectionLayoutSupplementaryItem`).
///
/// Its size is relative to the item it decorates (`.fractionalWidth(1)` is the item's width).
/// It is placed by aligning its own `itemAnchor` point with the item's `containerAnchor` point;
/// without an `itemAnchor`, the supplementary's corner named by the container anchor's edges is used,
/// so that `[.top, .trailing]` tucks the supplementary into the item's top-trailing corner before offsets.
///
/// ```swift
/// let badge = LayoutSupplementaryItem(
///     layoutSize: LayoutSize(widthDimension: .absolute(20), heightDimension: .absolute(20)),
///     elementKind: "badge",
///     containerAnchor: LayoutAnchor(edges: [.top, .trailing], fractionalOffset: LayoutPoint(x: 0.3, y: -0.3)))
/// let item = LayoutItem(layoutSize: size, supplementaryItems: [badge])
/// ```
public struct LayoutSupplementaryItem: Sendable, Hashable {
    /// The supplementary's size, relative to the item.
    public var layoutSize: LayoutSize
    /// The kind reported in ``LayoutElement/Category/supplementary(kind:)``.
    public var elementKind: String
    /// The anchor on the item.
    public var containerAnchor: LayoutAnchor
    /// The anchor on the supplementary itself (see the type's discussion for the default).
    public var itemAnchor: LayoutAnchor?
    /// The stacking order reported with the frame (higher is in front). Default 1, above cells.
    public var zIndex: Int = 1

    /// Creates a supplementary item.
    public init(layoutSize: LayoutSize, elementKind: String, containerAnchor: LayoutAnchor, itemAnchor: LayoutAnchor? = nil) {
        self.layoutSize = layoutSize
        self.elementKind = elementKind
        self.containerAnchor = containerAnchor
        self.itemAnchor = itemAnchor
    }

    /// The supplementary's frame for an item whose frame is `itemFrame`.
    ///
    /// - Complexity: O(1)
    public func frame(attachedTo itemFrame: LayoutRect) -> LayoutRect {
        let size = layoutSize.resolved(in: itemFrame.size)
        let onItem = containerAnchor.point(in: itemFrame.size)
        let containerOffset = containerAnchor.offsetPoint(supplementarySize: size)
        let ownAnchor = itemAnchor ?? LayoutAnchor(edges: containerAnchor.edges)
        let onSelf = ownAnchor.point(in: size)
        let ownOffset = ownAnchor.offsetPoint(supplementarySize: size)
        return LayoutRect(
            x: itemFrame.x + onItem.x + containerOffset.x - onSelf.x - ownOffset.x,
            y: itemFrame.y + onItem.y + containerOffset.y - onSelf.y - ownOffset.y,
            width: max(0, size.width),
            height: max(0, size.height)
        )
    }
}
