/// Something a group can contain: an item or another group (UIKit makes the group a subclass of
/// the item; here both convert to this enum).
public enum LayoutSubitem: Sendable {
    /// A leaf: one cell.
    case item(LayoutItem)
    /// A nested group.
    indirect case group(LayoutGroup)

    /// The subitem's size description.
    public var layoutSize: LayoutSize {
        switch self {
        case .item(let item): item.layoutSize
        case .group(let group): group.layoutSize
        }
    }

    /// The subitem's edge spacing.
    public var edgeSpacing: LayoutEdgeSpacing? {
        switch self {
        case .item(let item): item.edgeSpacing
        case .group(let group): group.edgeSpacing
        }
    }
}

/// A type that can be placed in a ``LayoutGroup``: ``LayoutItem`` and ``LayoutGroup``.
///
/// ```swift
/// let container = LayoutGroup.horizontal(layoutSize: size, subitems: [leadingGroup, trailingItem])
/// ```
public protocol LayoutSubitemConvertible: Sendable {
    /// The value as a subitem.
    var layoutSubitem: LayoutSubitem { get }
}

extension LayoutItem: LayoutSubitemConvertible {
    /// The item as a subitem.
    public var layoutSubitem: LayoutSubitem { .item(self) }
}

extension LayoutGroup: LayoutSubitemConvertible {
    /// The group as a subitem.
    public var layoutSubitem: LayoutSubitem { .group(self) }
}

extension LayoutSubitem: LayoutSubitemConvertible {
    /// Itself.
    public var layoutSubitem: LayoutSubitem { self }
}
