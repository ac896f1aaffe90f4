/// The position of an item: section index and item index in that section (UIKit's `IndexPath`).
///
/// ```swift
/// let second = ItemPath(section: 0, item: 1)
/// ```
public struct ItemPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The section index; −1 for the layout-wide supplementaries (``layoutWide``).
    public var section: Int
    /// The item index in the section (0 for boundary supplementaries and decorations).
    public var item: Int

    /// Creates an index path.
    @inlinable
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// The path reported for the layout's own headers and footers (UIKit gives them a one-index path).
    public static let layoutWide = ItemPath(section: -1, item: 0)

    /// Section first, then item.
    @inlinable
    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}
