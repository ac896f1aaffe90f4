/// A run of items in one section: what ``LayoutResult/itemRanges(in:orthogonalOffsets:)`` returns.
///
/// ```swift
/// let window = result.itemRanges(in: viewport)   // e.g. [SectionItemRange(section: 0, items: 200..<240)]
/// ```
public struct SectionItemRange: Sendable, Hashable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The item indices in the section.
    public var items: Range<Int>

    /// Creates a range of items in a section.
    public init(section: Int, items: Range<Int>) {
        self.section = section
        self.items = items
    }

    public var description: String { "section \(section), items \(items)" }
}
