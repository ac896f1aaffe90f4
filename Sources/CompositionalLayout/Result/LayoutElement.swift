/// One positioned element of a solved layout: an item, a supplementary or a decoration
/// (UIKit's `UICollectionViewLayoutAttributes`).
///
/// ```swift
/// for element in result.frames(in: viewport) {
///     switch element.category {
///     case .item: renderCell(at: element.indexPath, frame: element.frame)
///     case .supplementary(let kind): renderSupplementary(kind, element.indexPath.section, element.frame)
///     case .decoration(let kind): renderBackground(kind, element.indexPath.section, element.frame)
///     }
/// }
/// ```
public struct LayoutElement: Sendable, Hashable {
    /// What an element is.
    public enum Category: Sendable, Hashable {
        /// A cell.
        case item
        /// A header, footer or item-anchored supplementary of this kind.
        case supplementary(kind: String)
        /// A decoration (background) of this kind.
        case decoration(kind: String)
    }

    /// What the element is.
    public var category: Category
    /// The item's path; for a boundary supplementary or decoration, its section and item 0; for an
    /// item-anchored supplementary, its item's path; for layout-wide ones, ``ItemPath/layoutWide``.
    public var indexPath: ItemPath
    /// The frame, in content coordinates (orthogonal sections at horizontal scroll offset 0).
    public var frame: LayoutRect
    /// The stacking order (cells 0, supplementaries 1, backgrounds −1 by default).
    public var zIndex: Int

    /// Creates an element.
    public init(category: Category, indexPath: ItemPath, frame: LayoutRect, zIndex: Int = 0) {
        self.category = category
        self.indexPath = indexPath
        self.frame = frame
        self.zIndex = zIndex
    }
}

/// A solved supplementary: header, footer or item-anchored supplementary.
public struct LayoutSupplementary: Sendable, Hashable {
    /// The element kind, e.g. ``LayoutElementKind/sectionHeader``.
    public var kind: String
    /// Its path (see ``LayoutElement/indexPath``).
    public var indexPath: ItemPath
    /// Its frame when not pinned (its resting place).
    public var frame: LayoutRect
    /// Whether it sticks to the visible bounds (see ``LayoutResult/pinnedFrame(of:contentOffsetY:)``).
    public var isPinned: Bool
    /// The alignment of a boundary supplementary; `nil` for an item-anchored one.
    public var alignment: RectAlignment?
    /// The stacking order.
    public var zIndex: Int

    /// Creates a solved supplementary.
    public init(kind: String, indexPath: ItemPath, frame: LayoutRect, isPinned: Bool = false, alignment: RectAlignment? = nil, zIndex: Int = 1) {
        self.kind = kind
        self.indexPath = indexPath
        self.frame = frame
        self.isPinned = isPinned
        self.alignment = alignment
        self.zIndex = zIndex
    }

    /// The supplementary as a ``LayoutElement``.
    public var element: LayoutElement {
        LayoutElement(category: .supplementary(kind: kind), indexPath: indexPath, frame: frame, zIndex: zIndex)
    }
}

/// A solved decoration (a section background).
public struct LayoutDecoration: Sendable, Hashable {
    /// The element kind.
    public var kind: String
    /// The section it decorates.
    public var section: Int
    /// Its frame.
    public var frame: LayoutRect
    /// The stacking order.
    public var zIndex: Int

    /// Creates a solved decoration.
    public init(kind: String, section: Int, frame: LayoutRect, zIndex: Int = -1) {
        self.kind = kind
        self.section = section
        self.frame = frame
        self.zIndex = zIndex
    }

    /// The decoration as a ``LayoutElement``.
    public var element: LayoutElement {
        LayoutElement(category: .decoration(kind: kind), indexPath: ItemPath(section: section, item: 0), frame: frame, zIndex: zIndex)
    }
}
