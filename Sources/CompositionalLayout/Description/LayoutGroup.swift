/// A container that arranges items (or nested groups) along one axis (UIKit's `NSCollectionLayoutGroup`).
///
/// A section repeats its group down the page until the items run out; the items fill the
/// group's leaf slots depth-first, leading group first. The four ways to say what a group holds
/// differ, as in UIKit:
///
/// - `subitems:` lays the subitems out at their own sizes, then keeps repeating them (in order)
///   while the next one still fits: one `0.2`-wide item in a full-width horizontal group makes a
///   row of five (Apple's grid sample).
/// - `subitem:count:` (deprecated in iOS 16; the seeds' spelling) makes `count` slots that share the
///   group's length equally, spacing included, whatever the subitem's own length on that axis.
/// - `repeatingSubitem:count:` makes `count` slots at the subitem's own size (they may overflow).
/// - `custom(layoutSize:itemProvider:)` takes the slots' frames from a closure.
///
/// ```swift
/// // Apple's Mountains grid: 2 or 3 columns of 32-px rows, 10 px apart.
/// let item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalHeight(1.0)))
/// var group = LayoutGroup.horizontal(
///     layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(32)),
///     subitem: item, count: environment.container.effectiveContentSize.width > 800 ? 3 : 2)
/// group.interItemSpacing = .fixed(10)
/// ```
public struct LayoutGroup: Sendable {
    /// The axis along which a group arranges its subitems.
    public enum Axis: Sendable, Hashable {
        /// Leading to trailing.
        case horizontal
        /// Top to bottom.
        case vertical
    }

    /// What the group holds and how it repeats it.
    public enum Content: Sendable {
        /// `subitems:`: each at its own size, repeated while the next one fits.
        case subitems([LayoutSubitem])
        /// `subitem:count:`: `count` slots sharing the group's length equally.
        case fitting(LayoutSubitem, count: Int)
        /// `repeatingSubitem:count:`: `count` slots at the subitem's own size.
        case repeating(LayoutSubitem, count: Int)
        /// `custom`: frames from a closure, one slot each.
        case custom(@Sendable (LayoutGroupCustomEnvironment) -> [LayoutGroupCustomItem])
    }

    /// The group's size in its container.
    public var layoutSize: LayoutSize
    /// The axis of the arrangement (ignored by custom groups).
    public var axis: Axis
    /// What the group holds.
    public var content: Content
    /// Space between neighbouring subitems along the axis. `nil` means none.
    public var interItemSpacing: LayoutSpacing?
    /// Insets of the group's content area: subitems are sized and placed inside it. Ignored on estimated axes.
    public var contentInsets: DirectionalEdgeInsets = .zero
    /// Space around the group when it is nested in another group.
    public var edgeSpacing: LayoutEdgeSpacing?

    /// Creates a group; prefer the static factories, whose names are UIKit's.
    public init(layoutSize: LayoutSize, axis: Axis, content: Content) {
        self.layoutSize = layoutSize
        self.axis = axis
        self.content = content
    }

    /// The subitems the group was built with (one for the `count:` forms, none for custom groups).
    public var subitems: [LayoutSubitem] {
        switch content {
        case .subitems(let list): list
        case .fitting(let s, _), .repeating(let s, _): [s]
        case .custom: []
        }
    }

    // MARK: Horizontal

    /// A row of subitems at their own sizes, repeated while the next one fits.
    ///
    /// ```swift
    /// let row = LayoutGroup.horizontal(layoutSize: rowSize, subitems: [item])
    /// ```
    public static func horizontal(layoutSize: LayoutSize, subitems: [any LayoutSubitemConvertible]) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .horizontal, content: .subitems(subitems.map(\.layoutSubitem)))
    }

    /// A row of `count` slots that share the width equally, spacing included (deprecated in iOS 16).
    ///
    /// ```swift
    /// let row = LayoutGroup.horizontal(layoutSize: rowSize, subitem: item, count: 3)
    /// ```
    public static func horizontal(layoutSize: LayoutSize, subitem: any LayoutSubitemConvertible, count: Int) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .horizontal, content: .fitting(subitem.layoutSubitem, count: max(0, count)))
    }

    /// A row of `count` copies of the subitem at its own size (iOS 16); it may overflow the group.
    ///
    /// ```swift
    /// let row = LayoutGroup.horizontal(layoutSize: rowSize, repeatingSubitem: item, count: 3)
    /// ```
    public static func horizontal(layoutSize: LayoutSize, repeatingSubitem: any LayoutSubitemConvertible, count: Int) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .horizontal, content: .repeating(repeatingSubitem.layoutSubitem, count: max(0, count)))
    }

    // MARK: Vertical

    /// A column of subitems at their own sizes, repeated while the next one fits.
    ///
    /// ```swift
    /// let column = LayoutGroup.vertical(layoutSize: columnSize, subitems: [first, second, third])
    /// ```
    public static func vertical(layoutSize: LayoutSize, subitems: [any LayoutSubitemConvertible]) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .vertical, content: .subitems(subitems.map(\.layoutSubitem)))
    }

    /// A column of `count` slots that share the height equally, spacing included (deprecated in iOS 16).
    ///
    /// ```swift
    /// let trailing = LayoutGroup.vertical(layoutSize: halfWidth, subitem: item, count: 3)
    /// ```
    public static func vertical(layoutSize: LayoutSize, subitem: any LayoutSubitemConvertible, count: Int) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .vertical, content: .fitting(subitem.layoutSubitem, count: max(0, count)))
    }

    /// A column of `count` copies of the subitem at its own size (iOS 16); it may overflow the group.
    public static func vertical(layoutSize: LayoutSize, repeatingSubitem: any LayoutSubitemConvertible, count: Int) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .vertical, content: .repeating(repeatingSubitem.layoutSubitem, count: max(0, count)))
    }

    // MARK: Custom

    /// A group whose slots' frames come from a closure (relative to the group's content area).
    ///
    /// The closure is called once per solve for each distinct group shape (the result is reused
    /// for every repetition of the group), so it must depend only on the environment it is given.
    ///
    /// ```swift
    /// let diagonal = LayoutGroup.custom(layoutSize: size) { env in
    ///     let side = env.container.effectiveContentSize.width / 3
    ///     return (0..<3).map { LayoutGroupCustomItem(frame: LayoutRect(x: Double($0) * side, y: Double($0) * side, width: side, height: side)) }
    /// }
    /// ```
    public static func custom(
        layoutSize: LayoutSize,
        itemProvider: @escaping @Sendable (LayoutGroupCustomEnvironment) -> [LayoutGroupCustomItem]
    ) -> LayoutGroup {
        LayoutGroup(layoutSize: layoutSize, axis: .horizontal, content: .custom(itemProvider))
    }
}

/// What a custom group's closure is told: the size of the group's content area.
public struct LayoutGroupCustomEnvironment: Sendable, Hashable {
    /// The group's content area (its size minus its content insets).
    public var container: LayoutContainer
    /// Creates an environment.
    public init(container: LayoutContainer) { self.container = container }
}

/// One slot of a custom group (UIKit's `NSCollectionLayoutGroupCustomItem`).
///
/// UIKit's custom items also carry a `zIndex`; cells here all share z-index 0, so it is not modelled.
public struct LayoutGroupCustomItem: Sendable, Hashable {
    /// The slot's frame, relative to the group's content area.
    public var frame: LayoutRect
    /// Creates a slot.
    public init(frame: LayoutRect) {
        self.frame = frame
    }
}
