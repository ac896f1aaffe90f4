/// Reads and writes sizes and edge spacings along a group's axis ("main") and across it ("cross"),
/// so the group solver is written once for both orientations.
struct AxisMapping {
    let isHorizontal: Bool

    init(_ axis: LayoutGroup.Axis) {
        isHorizontal = axis == .horizontal
    }

    func main(_ size: LayoutPixelSize) -> Double { isHorizontal ? size.width : size.height }
    func cross(_ size: LayoutPixelSize) -> Double { isHorizontal ? size.height : size.width }

    func setMain(_ size: inout LayoutPixelSize, _ value: Double) {
        if isHorizontal { size.width = value } else { size.height = value }
    }

    func setCross(_ size: inout LayoutPixelSize, _ value: Double) {
        if isHorizontal { size.height = value } else { size.width = value }
    }

    private static let none = LayoutSpacing.fixed(0)

    /// The spacings before and after the item along the axis.
    func mainEdges(_ spacing: LayoutEdgeSpacing?) -> (leading: LayoutSpacing, trailing: LayoutSpacing) {
        guard let spacing else { return (Self.none, Self.none) }
        return isHorizontal
            ? (spacing.leading ?? Self.none, spacing.trailing ?? Self.none)
            : (spacing.top ?? Self.none, spacing.bottom ?? Self.none)
    }

    /// The spacings before and after the item across the axis.
    func crossEdges(_ spacing: LayoutEdgeSpacing?) -> (leading: LayoutSpacing, trailing: LayoutSpacing) {
        guard let spacing else { return (Self.none, Self.none) }
        return isHorizontal
            ? (spacing.top ?? Self.none, spacing.bottom ?? Self.none)
            : (spacing.leading ?? Self.none, spacing.trailing ?? Self.none)
    }
}
