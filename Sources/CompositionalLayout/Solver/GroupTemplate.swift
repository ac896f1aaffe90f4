// The template of a section's group, and the loops that repeat it down (or across) the section.

extension LayoutSolver {
    /// Appends the item-anchored supplementaries of one group instance whose items start at `firstItem`.
    static func appendSupplementaries(
        of shape: GroupTemplate, section: Int, firstItem: Int, itemCount: Int, dx: Double, dy: Double,
        to buffer: inout [LayoutSupplementary]
    ) {
        let filled = itemCount - firstItem
        for s in shape.supplementaries where s.leaf < filled {
            buffer.append(LayoutSupplementary(
                kind: s.kind, indexPath: ItemPath(section: section, item: firstItem + s.leaf),
                frame: s.frame.offsetBy(dx: dx, dy: dy), isPinned: false, alignment: nil, zIndex: s.zIndex))
        }
    }

    /// Writes `groups` repetitions of `template`, `step` apart along the section's scroll axis,
    /// holding `count` items, and each repetition's extent along that axis.
    ///
    /// This is the hot loop of the solver: one addition per coordinate per item, written
    /// through buffer pointers into storage extended once per section.
    static func stamp(
        _ template: GroupTemplate, count: Int, groups: Int, step: Double, isOrthogonal: Bool, origin: LayoutPoint,
        frames: inout [LayoutRect], low: inout [Double], high: inout [Double]
    ) {
        guard groups > 0 else { return }
        let firstFrame = frames.count, firstGroup = low.count
        frames.append(contentsOf: repeatElement(LayoutRect.zero, count: count))
        low.append(contentsOf: repeatElement(0, count: groups))
        high.append(contentsOf: repeatElement(0, count: groups))
        let lowOffset = isOrthogonal ? template.bounds.minX : template.bounds.minY
        let highOffset = isOrthogonal ? template.bounds.maxX : template.bounds.maxY
        let leafCount = template.leaves.count
        template.leaves.withUnsafeBufferPointer { leaves in
            frames.withUnsafeMutableBufferPointer { frames in
                low.withUnsafeMutableBufferPointer { low in
                    high.withUnsafeMutableBufferPointer { high in
                        var f = firstFrame
                        let end = firstFrame + count
                        for g in 0..<groups {
                            let offset = Double(g) * step
                            let ox = isOrthogonal ? origin.x + offset : origin.x
                            let oy = isOrthogonal ? origin.y : origin.y + offset
                            let filled = min(leafCount, end - f)
                            for k in 0..<filled {
                                let r = leaves[k]
                                frames[f + k] = LayoutRect(x: r.x + ox, y: r.y + oy, width: r.width, height: r.height)
                            }
                            f += filled
                            let along = isOrthogonal ? ox : oy
                            low[firstGroup + g] = along + lowOffset
                            high[firstGroup + g] = along + highOffset
                        }
                    }
                }
            }
        }
    }
}

/// A solved group instance: its leaves and supplementaries relative to its origin, and their bounds.
struct GroupTemplate: Sendable, Equatable {
    var leaves: [LayoutRect]
    var supplementaries: [SlotSupplementary]
    var size: LayoutPixelSize
    var sawEstimated: Bool
    var leafSizing: [SelfSizingAxes]
    /// The union of the leaves and supplementaries (and the group's own frame).
    var bounds: LayoutRect

    init(solver: GroupSolver, size: LayoutPixelSize) {
        leaves = solver.leaves
        supplementaries = solver.supplementaries
        self.size = size
        sawEstimated = solver.sawEstimated
        leafSizing = solver.leafSizing
        var bounds = LayoutRect(x: 0, y: 0, width: size.width, height: size.height)
        for leaf in leaves { bounds = bounds.union(leaf) }
        for s in supplementaries { bounds = bounds.union(s.frame) }
        self.bounds = bounds
    }
}
