/// A rectangle in layout coordinates, in CSS pixels (UIKit's `CGRect`).
///
/// Frames produced by the solver always have non-negative widths and heights.
///
/// ```swift
/// let cell = LayoutRect(x: 10, y: 10, width: 180, height: 32)
/// cell.maxX                                                          // 190
/// cell.intersects(LayoutRect(x: 0, y: 0, width: 390, height: 844))  // true
/// ```
public struct LayoutRect: Sendable, Hashable {
    /// The leading (left) edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Creates a rectangle from an origin and a size.
    @inlinable
    public init(origin: LayoutPoint, size: LayoutPixelSize) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The empty rectangle at the origin.
    public static let zero = LayoutRect(x: 0, y: 0, width: 0, height: 0)

    /// The top-leading corner.
    @inlinable public var origin: LayoutPoint { LayoutPoint(x: x, y: y) }
    /// The width and height.
    @inlinable public var size: LayoutPixelSize { LayoutPixelSize(width: width, height: height) }
    /// The leading edge (`x`).
    @inlinable public var minX: Double { x }
    /// The top edge (`y`).
    @inlinable public var minY: Double { y }
    /// The horizontal centre.
    @inlinable public var midX: Double { x + width / 2 }
    /// The vertical centre.
    @inlinable public var midY: Double { y + height / 2 }
    /// The trailing edge.
    @inlinable public var maxX: Double { x + width }
    /// The bottom edge.
    @inlinable public var maxY: Double { y + height }

    /// Whether the two rectangles share interior area.
    ///
    /// Rectangles that only touch along an edge do not intersect, so two cells
    /// laid out side by side never "intersect" each other.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func intersects(_ other: LayoutRect) -> Bool {
        x < other.x + other.width && other.x < x + width
            && y < other.y + other.height && other.y < y + height
    }

    /// Whether `point` lies inside the rectangle (leading/top edges included, trailing/bottom excluded).
    @inlinable
    public func contains(_ point: LayoutPoint) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }

    /// Whether `other` lies entirely inside the rectangle (edges included).
    @inlinable
    public func contains(_ other: LayoutRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The rectangle moved by `dx`, `dy`.
    @inlinable
    public func offsetBy(dx: Double, dy: Double) -> LayoutRect {
        LayoutRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle shrunk by `insets` (grown where they are negative).
    /// A side that would become negative is clamped to zero.
    @inlinable
    public func inset(by insets: DirectionalEdgeInsets) -> LayoutRect {
        LayoutRect(
            x: x + insets.leading,
            y: y + insets.top,
            width: max(0, width - insets.leading - insets.trailing),
            height: max(0, height - insets.top - insets.bottom)
        )
    }

    /// The smallest rectangle containing both.
    @inlinable
    public func union(_ other: LayoutRect) -> LayoutRect {
        let minX = Swift.min(x, other.x), minY = Swift.min(y, other.y)
        let maxX = Swift.max(self.maxX, other.maxX), maxY = Swift.max(self.maxY, other.maxY)
        return LayoutRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
