/// Where a boundary supplementary sits relative to its section (UIKit's `NSRectAlignment`).
///
/// In a vertically scrolling layout the `top…` alignments make headers (above the content) and
/// the `bottom…` ones footers (below it); the horizontal part places an item narrower than the
/// section at its leading edge, centre or trailing edge.
public enum RectAlignment: Sendable, Hashable {
    /// Top-leading corner of the content area, without extending the section.
    case none
    /// Above the content, centred horizontally.
    case top
    /// Above the content, at the leading edge.
    case topLeading
    /// Alongside the content, at the leading edge.
    case leading
    /// Below the content, at the leading edge.
    case bottomLeading
    /// Below the content, centred horizontally.
    case bottom
    /// Below the content, at the trailing edge.
    case bottomTrailing
    /// Alongside the content, at the trailing edge.
    case trailing
    /// Above the content, at the trailing edge.
    case topTrailing

    /// Whether the alignment places the item above the content.
    public var isTop: Bool { self == .top || self == .topLeading || self == .topTrailing }
    /// Whether the alignment places the item below the content.
    public var isBottom: Bool { self == .bottom || self == .bottomLeading || self == .bottomTrailing }

    /// The x of an item of width `width` aligned in `[minX, minX + available]`.
    func alignedX(width: Double, minX: Double, available: Double) -> Double {
        switch self {
        case .top, .bottom: minX + (available - width) / 2
        case .topTrailing, .bottomTrailing, .trailing: minX + available - width
        case .none, .topLeading, .bottomLeading, .leading: minX
        }
    }
}
