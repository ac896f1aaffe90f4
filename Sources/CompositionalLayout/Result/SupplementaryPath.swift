/// Names a boundary supplementary for self-sizing: its kind and section (−1 for the layout's own).
///
/// ```swift
/// let measured = [SupplementaryPath(kind: LayoutElementKind.sectionHeader, section: 0): LayoutPixelSize(width: 350, height: 52)]
/// layout.solve(itemCounts: counts, container: viewport, measuredSupplementarySizes: measured)
/// ```
public struct SupplementaryPath: Sendable, Hashable {
    /// The element kind.
    public var kind: String
    /// The section, or −1 for a layout-wide header or footer.
    public var section: Int

    /// Creates a supplementary path.
    public init(kind: String, section: Int) {
        self.kind = kind
        self.section = section
    }
}
