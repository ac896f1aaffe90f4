/// A header or footer of a section or of the whole layout (UIKit's `NSCollectionLayoutBoundarySupplementaryItem`).
///
/// A top-aligned item that `extendsBoundary` takes room above the section's content (the
/// section's top content inset then sits between it and the first item); a bottom-aligned one
/// takes room below. Its fractional width is of the section's content width when the section's
/// `supplementariesFollowContentInsets` is true (the default), else of the container's width.
///
/// ```swift
/// var header = LayoutBoundarySupplementaryItem(
///     layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .estimated(44)),
///     elementKind: LayoutElementKind.sectionHeader,
///     alignment: .top)
/// header.pinToVisibleBounds = true     // sticky header
/// section.boundarySupplementaryItems = [header]
/// ```
public struct LayoutBoundarySupplementaryItem: Sendable, Hashable {
    /// The item's size.
    public var layoutSize: LayoutSize
    /// The kind reported with its frame, e.g. ``LayoutElementKind/sectionHeader``.
    public var elementKind: String
    /// Where it sits.
    public var alignment: RectAlignment
    /// A pixel offset applied after alignment (it does not change the room taken).
    public var absoluteOffset: LayoutPoint
    /// Whether the item sticks to the visible bounds while its section scrolls by (see ``LayoutResult/pinnedFrame(of:contentOffsetY:)``).
    public var pinToVisibleBounds: Bool = false
    /// Whether the item takes room of its own (`true`, the default) or overlaps the content.
    public var extendsBoundary: Bool = true
    /// Shrinks the frame inside the room it takes (not on estimated axes).
    public var contentInsets: DirectionalEdgeInsets = .zero
    /// The stacking order reported with the frame. Default 1, above cells; UIKit draws pinned headers above cells too.
    public var zIndex: Int = 1

    /// Creates a boundary supplementary item.
    public init(layoutSize: LayoutSize, elementKind: String, alignment: RectAlignment, absoluteOffset: LayoutPoint = .zero) {
        self.layoutSize = layoutSize
        self.elementKind = elementKind
        self.alignment = alignment
        self.absoluteOffset = absoluteOffset
    }
}

/// The element kinds this module uses for the supplementaries it creates itself (lists, examples).
/// Any string is a valid kind.
public enum LayoutElementKind {
    /// `"header"`: a section header.
    public static let sectionHeader = "header"
    /// `"footer"`: a section footer.
    public static let sectionFooter = "footer"
    /// `"layout-header"`: a header of the whole layout.
    public static let layoutHeader = "layout-header"
    /// `"layout-footer"`: a footer of the whole layout.
    public static let layoutFooter = "layout-footer"
    /// `"background"`: a section background decoration.
    public static let sectionBackground = "background"
}
