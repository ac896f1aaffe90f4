/// One axis of a ``LayoutSize`` (UIKit's `NSCollectionLayoutDimension`).
///
/// Fractions are of the *container*: the enclosing group's content area for an item or a
/// nested group, the section's content area for a top-level group (the container minus the
/// section's content insets, on both axes), the item for an item's supplementary.
///
/// ```swift
/// // Apple's Mountains grid: each cell fills its 32-px-tall slot.
/// let item = LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalHeight(1.0))
/// let row  = LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(32))
/// ```
public enum LayoutDimension: Sendable, Hashable {
    /// A fraction of the container's width.
    case fractionalWidth(Double)
    /// A fraction of the container's height.
    case fractionalHeight(Double)
    /// A fixed length in CSS pixels.
    case absolute(Double)
    /// A length to use until the element has been measured (self-sizing).
    ///
    /// The solver uses the estimate until `solve(…, measuredSizes:)` supplies the measured
    /// length of the item on this axis. Content insets are ignored on estimated axes, as in UIKit.
    case estimated(Double)

    /// Whether this is `.estimated`.
    @inlinable
    public var isEstimated: Bool {
        if case .estimated = self { return true }
        return false
    }

    /// Whether this is `.absolute`.
    @inlinable
    public var isAbsolute: Bool {
        if case .absolute = self { return true }
        return false
    }

    /// Whether this is `.fractionalWidth`.
    @inlinable
    public var isFractionalWidth: Bool {
        if case .fractionalWidth = self { return true }
        return false
    }

    /// Whether this is `.fractionalHeight`.
    @inlinable
    public var isFractionalHeight: Bool {
        if case .fractionalHeight = self { return true }
        return false
    }

    /// The fraction, length or estimate, whatever the case.
    @inlinable
    public var dimension: Double {
        switch self {
        case .fractionalWidth(let v), .fractionalHeight(let v), .absolute(let v), .estimated(let v): v
        }
    }

    /// The length this dimension takes in a container of the given size.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func resolved(in container: LayoutPixelSize) -> Double {
        switch self {
        case .fractionalWidth(let f): f * container.width
        case .fractionalHeight(let f): f * container.height
        case .absolute(let v), .estimated(let v): v
        }
    }
}
