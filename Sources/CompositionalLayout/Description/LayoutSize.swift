/// A width and a height, each a ``LayoutDimension`` (UIKit's `NSCollectionLayoutSize`).
///
/// ```swift
/// // A full-width row 44 px tall: the basic list of the seeds.
/// let rowSize = LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(44))
/// ```
public struct LayoutSize: Sendable, Hashable {
    /// How the width is computed.
    public var widthDimension: LayoutDimension
    /// How the height is computed.
    public var heightDimension: LayoutDimension

    /// Creates a size from two dimensions.
    @inlinable
    public init(widthDimension: LayoutDimension, heightDimension: LayoutDimension) {
        self.widthDimension = widthDimension
        self.heightDimension = heightDimension
    }

    /// The concrete size in a container, estimates standing in for unmeasured lengths.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func resolved(in container: LayoutPixelSize) -> LayoutPixelSize {
        LayoutPixelSize(
            width: widthDimension.resolved(in: container),
            height: heightDimension.resolved(in: container)
        )
    }
}
