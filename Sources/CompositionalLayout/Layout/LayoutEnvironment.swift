/// The space a layout fills: the browser's viewport in CSS pixels (UIKit's `NSCollectionLayoutContainer`).
///
/// ```swift
/// let phone = LayoutContainer(width: 390, height: 844)
/// ```
public struct LayoutContainer: Sendable, Hashable {
    /// The container's size.
    public var contentSize: LayoutPixelSize
    /// The size available to content. The browser has no safe-area or content insets, so this
    /// equals `contentSize`; the name is UIKit's, for layouts ported from iOS.
    public var effectiveContentSize: LayoutPixelSize { contentSize }

    /// Creates a container.
    public init(width: Double, height: Double) {
        contentSize = LayoutPixelSize(width: width, height: height)
    }

    /// The container's width.
    public var width: Double { contentSize.width }
    /// The container's height.
    public var height: Double { contentSize.height }
}

/// What a section provider knows when it builds a section (UIKit's `NSCollectionLayoutEnvironment`).
///
/// ```swift
/// let layout = CompositionalLayout { sectionIndex, environment in
///     let columns = environment.container.effectiveContentSize.width > 800 ? 3 : 2
///     …
/// }
/// ```
public struct LayoutEnvironment: Sendable, Hashable {
    /// The container the layout fills.
    public var container: LayoutContainer

    /// Creates an environment.
    public init(container: LayoutContainer) {
        self.container = container
    }
}
