/// A view behind a section, such as a rounded background (UIKit's `NSCollectionLayoutDecorationItem`).
///
/// A background covers the section's whole frame (full container width; headers, content insets,
/// items and footers), shrunk by its own `contentInsets`.
///
/// ```swift
/// // Apple's section-background sample: items 10 px in, the background 5 px in.
/// section.contentInsets = .uniform(10)
/// var background = LayoutDecorationItem.background(elementKind: "section-background")
/// background.contentInsets = .uniform(5)
/// section.decorationItems = [background]
/// ```
public struct LayoutDecorationItem: Sendable, Hashable {
    /// The kind reported with its frame.
    public var elementKind: String
    /// Shrinks the frame inside the section's frame.
    public var contentInsets: DirectionalEdgeInsets = .zero
    /// The stacking order reported with the frame. Default −1: behind the cells.
    public var zIndex: Int = -1

    /// A background decoration of the given kind.
    public static func background(elementKind: String) -> LayoutDecorationItem {
        LayoutDecorationItem(elementKind: elementKind)
    }

    private init(elementKind: String) {
        self.elementKind = elementKind
    }
}
