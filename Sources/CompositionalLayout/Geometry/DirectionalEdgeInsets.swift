/// Insets on the four edges of a rectangle (UIKit's `NSDirectionalEdgeInsets`).
///
/// The layout is left-to-right: `leading` is the left edge, `trailing` the right one.
///
/// ```swift
/// var item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1)))
/// item.contentInsets = DirectionalEdgeInsets(top: 1, leading: 1, bottom: 1, trailing: 1)
/// item.contentInsets = .uniform(1)    // the same
/// ```
public struct DirectionalEdgeInsets: Sendable, Hashable {
    /// The inset of the top edge.
    public var top: Double
    /// The inset of the leading (left) edge.
    public var leading: Double
    /// The inset of the bottom edge.
    public var bottom: Double
    /// The inset of the trailing (right) edge.
    public var trailing: Double

    /// Creates insets.
    @inlinable
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// The same inset on every edge.
    @inlinable
    public static func uniform(_ value: Double) -> DirectionalEdgeInsets {
        DirectionalEdgeInsets(top: value, leading: value, bottom: value, trailing: value)
    }

    /// No insets.
    public static let zero = DirectionalEdgeInsets()

    /// `leading + trailing`.
    @inlinable public var horizontal: Double { leading + trailing }
    /// `top + bottom`.
    @inlinable public var vertical: Double { top + bottom }
}
