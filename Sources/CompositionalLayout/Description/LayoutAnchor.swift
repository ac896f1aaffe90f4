/// Where a supplementary item attaches to the item it decorates (UIKit's `NSCollectionLayoutAnchor`).
///
/// The anchor names a point of a rectangle by its edges: `[.top, .trailing]` is the top-trailing
/// corner, `[.top]` the middle of the top edge, `[]` the centre. An offset then moves the point,
/// either in pixels or as a fraction of the *supplementary's* size.
///
/// ```swift
/// // A badge hanging over the top-trailing corner of a cell (Apple's badge sample).
/// let anchor = LayoutAnchor(edges: [.top, .trailing], fractionalOffset: LayoutPoint(x: 0.3, y: -0.3))
/// ```
public struct LayoutAnchor: Sendable, Hashable {
    /// The edges of a rectangle, as a set.
    public struct Edges: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The top edge.
        public static let top = Edges(rawValue: 1 << 0)
        /// The leading (left) edge.
        public static let leading = Edges(rawValue: 1 << 1)
        /// The bottom edge.
        public static let bottom = Edges(rawValue: 1 << 2)
        /// The trailing (right) edge.
        public static let trailing = Edges(rawValue: 1 << 3)
    }

    /// How an anchor's offset is expressed.
    public enum Offset: Sendable, Hashable {
        /// In CSS pixels.
        case absolute(LayoutPoint)
        /// As fractions of the supplementary item's width and height.
        case fractional(LayoutPoint)
    }

    /// The edges naming the anchor point.
    public var edges: Edges
    /// The offset applied to the anchor point.
    public var offset: Offset

    /// An anchor at the point named by `edges`, without offset.
    public init(edges: Edges) {
        self.edges = edges
        self.offset = .absolute(.zero)
    }

    /// An anchor moved by a number of pixels.
    public init(edges: Edges, absoluteOffset: LayoutPoint) {
        self.edges = edges
        self.offset = .absolute(absoluteOffset)
    }

    /// An anchor moved by fractions of the supplementary item's size.
    public init(edges: Edges, fractionalOffset: LayoutPoint) {
        self.edges = edges
        self.offset = .fractional(fractionalOffset)
    }

    /// The anchor point in `rect`'s coordinates (relative to its origin), before the offset.
    @usableFromInline
    func point(in size: LayoutPixelSize) -> LayoutPoint {
        let x: Double = edges.contains(.leading) ? 0 : edges.contains(.trailing) ? size.width : size.width / 2
        let y: Double = edges.contains(.top) ? 0 : edges.contains(.bottom) ? size.height : size.height / 2
        return LayoutPoint(x: x, y: y)
    }

    /// The offset in pixels for a supplementary of the given size.
    @usableFromInline
    func offsetPoint(supplementarySize: LayoutPixelSize) -> LayoutPoint {
        switch offset {
        case .absolute(let p): p
        case .fractional(let f): LayoutPoint(x: f.x * supplementarySize.width, y: f.y * supplementarySize.height)
        }
    }
}
