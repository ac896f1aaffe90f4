/// A concrete width and height in CSS pixels (UIKit's `CGSize`).
///
/// Not to be confused with ``LayoutSize``, which *describes* a size with
/// ``LayoutDimension``s; a `LayoutPixelSize` is what such a description resolves to.
///
/// ```swift
/// let measured = LayoutPixelSize(width: 390, height: 61)
/// ```
public struct LayoutPixelSize: Sendable, Hashable {
    /// The width in CSS pixels.
    public var width: Double
    /// The height in CSS pixels.
    public var height: Double

    /// Creates a size.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The size 0 × 0.
    public static let zero = LayoutPixelSize(width: 0, height: 0)
}
