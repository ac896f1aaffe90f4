/// Space between items, or around one item (UIKit's `NSCollectionLayoutSpacing`).
///
/// ```swift
/// group.interItemSpacing = .fixed(10)       // exactly 10 px between neighbours
/// group.interItemSpacing = .flexible(0)     // spread the items to fill the group
/// ```
public enum LayoutSpacing: Sendable, Hashable {
    /// Exactly this many CSS pixels.
    case fixed(Double)
    /// At least this many CSS pixels; grows to share the group's leftover space.
    ///
    /// The leftover space along a group's axis is split equally between all of that group's
    /// flexible spacings (inter-item and edge spacings alike).
    case flexible(Double)

    /// The fixed length or the flexible minimum.
    @inlinable
    public var spacing: Double {
        switch self {
        case .fixed(let v), .flexible(let v): v
        }
    }

    /// Whether this is `.flexible`.
    @inlinable
    public var isFlexible: Bool {
        if case .flexible = self { return true }
        return false
    }
}

/// Space outside an item's edges that pushes it and its neighbours apart
/// (UIKit's `NSCollectionLayoutEdgeSpacing`).
///
/// Unlike ``LayoutItem/contentInsets`` (which shrink the item inside its slot), edge spacing
/// makes the slot itself move: along the group's axis it adds to the room the item takes,
/// across it, it offsets the item inside the group. Flexible edges share leftover room, so
/// `.flexible(0)` on both sides centres an item.
///
/// ```swift
/// var item = LayoutItem(layoutSize: LayoutSize(widthDimension: .absolute(100), heightDimension: .absolute(40)))
/// item.edgeSpacing = LayoutEdgeSpacing(leading: .flexible(0), top: nil, trailing: .flexible(0), bottom: nil)
/// ```
public struct LayoutEdgeSpacing: Sendable, Hashable {
    /// Space before the leading edge.
    public var leading: LayoutSpacing?
    /// Space above the top edge.
    public var top: LayoutSpacing?
    /// Space after the trailing edge.
    public var trailing: LayoutSpacing?
    /// Space below the bottom edge.
    public var bottom: LayoutSpacing?

    /// Creates edge spacing; `nil` means none on that edge.
    @inlinable
    public init(leading: LayoutSpacing?, top: LayoutSpacing?, trailing: LayoutSpacing?, bottom: LayoutSpacing?) {
        self.leading = leading
        self.top = top
        self.trailing = trailing
        self.bottom = bottom
    }
}
