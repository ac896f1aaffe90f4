/// A point in layout coordinates, in CSS pixels (UIKit's `CGPoint`).
///
/// The origin is the top-leading corner of the layout's content; `y` grows downwards.
///
/// ```swift
/// let offset = LayoutPoint(x: 0, y: 120)
/// ```
public struct LayoutPoint: Sendable, Hashable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates a point.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point at (0, 0).
    public static let zero = LayoutPoint(x: 0, y: 0)
}
