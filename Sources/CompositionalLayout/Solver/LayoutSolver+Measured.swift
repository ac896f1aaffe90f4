// The stamped form of a section's measured groups: the reference `solveStamped` stores, and
// what the measured representation is tested against.

extension LayoutSolver {
    /// Writes every item frame of `groups`, each group's extent along the axis, and its
    /// item-anchored supplementaries; returns the extent of all of them along y.
    ///
    /// Origins come from ``MeasuredGroups/groupOrigin(_:)``, the very expression the measured
    /// representation evaluates when asked, so both give the same bits.
    /// - Complexity: O(n log g) for n items in g groups.
    static func stamp(
        _ groups: MeasuredGroups, section: Int, frames: inout [LayoutRect], low: inout [Double], high: inout [Double],
        supplementaries: inout [LayoutSupplementary]
    ) -> (minY: Double, maxY: Double) {
        var minY = Double.infinity, maxY = -Double.infinity
        frames.reserveCapacity(frames.count + groups.itemCount)
        for g in 0..<groups.groupCount {
            let (ox, oy) = groups.groupOrigin(g)
            let leaves = groups.leaves(ofGroup: g)
            for k in 0..<groups.filled(g) {
                let r = leaves[k]
                frames.append(LayoutRect(x: r.x + ox, y: r.y + oy, width: r.width, height: r.height))
            }
            groups.appendSupplementaries(ofGroup: g, section: section, to: &supplementaries)
            let bounds = groups.bounds(ofGroup: g)
            low.append(oy + bounds.low)
            high.append(oy + bounds.high)
            minY = min(minY, oy + bounds.low)
            maxY = max(maxY, oy + bounds.high)
        }
        return (minY, maxY)
    }
}
