/// The axes on which an element sizes itself: those whose dimension is `.estimated`, where a
/// measured size replaces the estimate (UIKit's `preferredLayoutAttributesFitting`).
///
/// ```swift
/// let axes = result.selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 12))
/// if axes.contains(.height) { measureHeightInTheBrowser() }
/// axes.isEmpty   // true for a fixed-size cell: there is nothing to measure
/// ```
public struct SelfSizingAxes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The width is estimated: a measured width replaces it.
    public static let width = SelfSizingAxes(rawValue: 1)
    /// The height is estimated: a measured height replaces it.
    public static let height = SelfSizingAxes(rawValue: 2)

    /// The estimated axes of a layout size.
    init(_ size: LayoutSize) {
        var axes: SelfSizingAxes = []
        if size.widthDimension.isEstimated { axes.insert(.width) }
        if size.heightDimension.isEstimated { axes.insert(.height) }
        self = axes
    }
}
