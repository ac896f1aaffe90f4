// A vertical section holding measured self-sizing items: its group template, the groups solved
// again with their measured items, and a sum tree of how much longer each of those is.

/// A section's groups when some hold measured items: ``RepeatedGroups``' template everywhere
/// else, the re-solved groups kept by index, and their extent deltas along the scroll axis in a
/// ``GroupOffsets`` tree.
///
/// Group `g`'s origin is the template's origin moved down by `Double(g) × step + prefix(g)`, the
/// prefix summing the deltas of the groups before it. A solve or an update costs the measured
/// groups (each solved once, O(log g) to place) rather than the section's items; every query
/// answers in O(log g) per frame. Vertical sections only: an orthogonal section with measured
/// items stores its frames.
struct MeasuredGroups: Sendable {
    /// The template, with the section's origin, step, group and item counts.
    private(set) var template: RepeatedGroups
    /// The groups holding an in-range measured item, solved with their measurements.
    private(set) var shapes: [Int: GroupTemplate]
    /// Per group, its length along the axis minus the template's.
    private(set) var offsets: GroupOffsets
    /// What a group is solved from.
    let group: LayoutGroup
    let proposed: LayoutPixelSize
    /// The template's length along the axis, and the spacing between groups.
    let templateLength: Double
    let spacing: Double
    /// The lowest and highest coordinate along the axis of any group's contents relative to its
    /// origin (never tightened after an update: window searches only need a bound).
    private(set) var lowest: Double
    private(set) var highest: Double
    /// How far any group's contents reach past its own end along the axis (badges), at least 0.
    private(set) var overhang: Double

    /// The section's groups with `measured` applied, or `nil` if one of them cannot be placed by
    /// prefix sums (a non-finite or negative length, or groups that would move backwards).
    ///
    /// - Complexity: O(g + m) for g groups and m measured items, plus one group solve per
    ///   group holding a measured item.
    init?(template: RepeatedGroups, templateLength: Double, spacing: Double, group: LayoutGroup,
          proposed: LayoutPixelSize, measured: [Int: LayoutPixelSize]) {
        guard !template.isOrthogonal, template.step > 0, template.step.isFinite, template.leavesPerGroup > 0 else { return nil }
        self.template = template
        self.templateLength = templateLength
        self.spacing = spacing
        self.group = group
        self.proposed = proposed
        self.shapes = [:]
        self.offsets = GroupOffsets(count: 0)   // built below, once the deltas are known
        self.lowest = template.lowOffset
        self.highest = template.highOffset
        self.overhang = max(0, template.highOffset - templateLength)
        var deltas = [Double](repeating: 0, count: template.groupCount)
        shapes.reserveCapacity(min(measured.count, template.groupCount))
        // Groups whose items measure alike are alike (text wraps to a few line heights): each
        // distinct shape is solved once, and its leaves are shared, not copied.
        var solved: [MeasuredGroupKey: GroupTemplate] = [:]
        for item in measured.keys where item >= 0 && item < template.itemCount {
            let g = item / template.leavesPerGroup
            guard shapes[g] == nil else { continue }
            let key = MeasuredGroupKey(group: g, leaves: template.leavesPerGroup, measured: measured)
            let shape: GroupTemplate
            if let key, let known = solved[key] {
                shape = known
            } else {
                let fresh = solve(g, measured: measured)
                guard isPlaceable(fresh) else { return nil }
                shape = fresh.trimmed
                if let key { solved[key] = shape }
            }
            shapes[g] = shape
            deltas[g] = shape.size.height - templateLength
            lowest = min(lowest, shape.bounds.minY)
            highest = max(highest, shape.bounds.maxY)
            overhang = max(overhang, shape.bounds.maxY - shape.size.height)
        }
        offsets = GroupOffsets(values: deltas)
    }

    /// Group `g` solved with the measured sizes of its items (`measured`: the section's, by item
    /// index, those beyond the last item included: a partial last group's empty slots take them,
    /// as in a fresh solve).
    private func solve(_ g: Int, measured: [Int: LayoutPixelSize]) -> GroupTemplate {
        var solver = GroupSolver(measured: measured, firstItem: g * template.leavesPerGroup)
        let size = solver.layout(group, proposed: proposed)
        return GroupTemplate(solver: solver, size: size)
    }

    /// Whether a solved group can be placed by prefix sums: finite, and not moving the next
    /// group backwards.
    private func isPlaceable(_ shape: GroupTemplate) -> Bool {
        let length = shape.size.height
        let b = shape.bounds
        return length.isFinite && length >= 0 && length + spacing >= 0
            && b.minX.isFinite && b.maxX.isFinite && b.minY.isFinite && b.maxY.isFinite
            && shape.leaves.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.width.isFinite && $0.height.isFinite }
    }

    /// Outcome of ``remeasure(_:)``.
    enum Update {
        /// Applied; whether any frame of the section changed.
        case applied(changed: Bool)
        /// A group cannot be placed by prefix sums: solve the section afresh.
        case unplaceable
    }

    /// Solves again the groups that new measured `sizes` (section-local item indices) fall in,
    /// with `measured`, every measured size of the section (these included); a group's new
    /// length goes into the sum tree.
    ///
    /// - Complexity: O(k log g) for k sizes, plus one group solve per group they touch.
    mutating func remeasure(_ sizes: [(item: Int, size: LayoutPixelSize)], measured: [Int: LayoutPixelSize]) -> Update {
        let perGroup = template.leavesPerGroup
        var touched: [Int] = []
        for (item, _) in sizes where item >= 0 {
            let g = item / perGroup
            // A group is solved again when it holds an in-range measured item (as in a fresh solve).
            if g < template.groupCount && (item < template.itemCount || shapes[g] != nil) { touched.append(g) }
        }
        var changed = false
        var seen = Set<Int>()
        for g in touched where seen.insert(g).inserted {
            let shape = solve(g, measured: measured)
            guard isPlaceable(shape) else { return .unplaceable }
            let delta = shape.size.height - templateLength
            if offsets.value(g) != delta || !sameFrames(shape, as: shapes[g], filled: filled(g)) { changed = true }
            shapes[g] = shape.trimmed
            if offsets.value(g) != delta { offsets.set(g, to: delta) }
            lowest = min(lowest, shape.bounds.minY)
            highest = max(highest, shape.bounds.maxY)
            overhang = max(overhang, shape.bounds.maxY - shape.size.height)
        }
        return .applied(changed: changed)
    }

    /// Whether two solves of a group give its `filled` items (and their supplementaries) the same
    /// frames; the empty slots of a partial last group do not count.
    /// (`nil`: the template).
    func sameFrames(_ shape: GroupTemplate, as other: GroupTemplate?, filled: Int) -> Bool {
        let leaves = other?.leaves ?? template.leaves
        let supplementaries = other?.supplementaries ?? template.supplementaries
        return shape.leaves.prefix(filled) == leaves.prefix(filled)
            && shape.supplementaries.filter { $0.leaf < filled } == supplementaries.filter { $0.leaf < filled }
    }

    /// The same groups with the section starting at `origin`.
    ///
    /// - Complexity: O(1)
    func moved(to origin: LayoutPoint) -> MeasuredGroups {
        var copy = self
        copy.template = template.moved(to: origin)
        return copy
    }

    // MARK: Geometry

    var groupCount: Int { template.groupCount }
    var itemCount: Int { template.itemCount }
    var leavesPerGroup: Int { template.leavesPerGroup }

    /// The groups' length along the axis: from the first group's origin to the last group's end.
    ///
    /// - Complexity: O(1)
    var contentLength: Double {
        groupCount == 0 ? 0 : (Double(groupCount) * template.step + offsets.total) - spacing
    }

    /// The origin of group `g`.
    ///
    /// - Complexity: O(log g)
    @inline(__always)
    func groupOrigin(_ g: Int) -> (x: Double, y: Double) {
        (template.origin.x, template.origin.y + (Double(g) * template.step + offsets.prefix(g)))
    }

    /// The leaves of group `g`, relative to its origin.
    @inline(__always)
    func leaves(ofGroup g: Int) -> [LayoutRect] { shapes[g]?.leaves ?? template.leaves }

    /// The extent of group `g`'s contents along the axis, relative to its origin.
    func bounds(ofGroup g: Int) -> (low: Double, high: Double) {
        if let shape = shapes[g] { return (shape.bounds.minY, shape.bounds.maxY) }
        return (template.lowOffset, template.highOffset)
    }

    /// How many items group `g` holds.
    @inline(__always)
    func filled(_ g: Int) -> Int { template.filled(g) }

    /// The items held by `groups`.
    func items(inGroups groups: Range<Int>) -> Range<Int> { template.items(inGroups: groups) }

    /// The frame of item `i` (0 ≤ i < itemCount).
    ///
    /// - Complexity: O(log g)
    func frame(ofItem i: Int) -> LayoutRect {
        let (g, k) = i.quotientAndRemainder(dividingBy: leavesPerGroup)
        let (ox, oy) = groupOrigin(g)
        let r = leaves(ofGroup: g)[k]
        return LayoutRect(x: r.x + ox, y: r.y + oy, width: r.width, height: r.height)
    }

    /// A range of groups holding every group whose extent along the axis meets `low ..< high`
    /// (and possibly a few around them, within the tallest group's reach): found by two
    /// descents of the sum tree.
    ///
    /// - Complexity: O(log g)
    func groups(from low: Double, to high: Double) -> Range<Int> {
        guard groupCount > 0 else { return 0..<0 }
        // One pixel of slack absorbs the rounding between these sums and `groupOrigin`'s.
        let base = template.origin.y
        let first = offsets.lastGroup(atOrBelow: low - base - highest - 1, step: template.step) + 1
        let end = offsets.lastGroup(atOrBelow: high - base - lowest + 1, step: template.step) + 1
        let lower = min(max(first, 0), groupCount)
        return lower..<min(max(end, lower), groupCount)
    }

    /// The item-anchored supplementaries of group `g`, appended to `out` as the stamping path
    /// would have stored them.
    func appendSupplementaries(ofGroup g: Int, section: Int, to out: inout [LayoutSupplementary]) {
        let slots = shapes[g]?.supplementaries ?? template.supplementaries
        guard !slots.isEmpty else { return }
        let (ox, oy) = groupOrigin(g)
        let first = g * leavesPerGroup
        let filled = filled(g)
        for s in slots where s.leaf < filled {
            out.append(LayoutSupplementary(
                kind: s.kind, indexPath: ItemPath(section: section, item: first + s.leaf),
                frame: s.frame.offsetBy(dx: ox, dy: oy), isPinned: false, alignment: nil, zIndex: s.zIndex))
        }
    }

    /// Whether the groups have item-anchored supplementaries (a re-solved group has the same
    /// items, so the same supplementaries, as the template).
    var hasSupplementaries: Bool { !template.supplementaries.isEmpty }
}

extension GroupTemplate {
    /// Without what only the template needs (the leaves' self-sizing axes), to keep a measured
    /// group small: a list measured from end to end holds one per row.
    fileprivate var trimmed: GroupTemplate {
        var copy = self
        copy.leafSizing = []
        return copy
    }
}

/// The measured sizes of one group's items (up to four leaves; `nil` beyond), which alone decide
/// how the group is solved: groups with equal keys get equal shapes.
struct MeasuredGroupKey: Hashable {
    private var sizes: (LayoutPixelSize?, LayoutPixelSize?, LayoutPixelSize?, LayoutPixelSize?)

    /// The key of group `g`, or `nil` when its groups have more than four leaves (not shared).
    init?(group g: Int, leaves: Int, measured: [Int: LayoutPixelSize]) {
        guard leaves <= 4 else { return nil }
        let first = g * leaves
        func size(_ leaf: Int) -> LayoutPixelSize? { leaf < leaves ? measured[first + leaf] : nil }
        sizes = (size(0), size(1), size(2), size(3))
    }

    static func == (a: Self, b: Self) -> Bool {
        a.sizes.0 == b.sizes.0 && a.sizes.1 == b.sizes.1 && a.sizes.2 == b.sizes.2 && a.sizes.3 == b.sizes.3
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(sizes.0)
        hasher.combine(sizes.1)
        hasher.combine(sizes.2)
        hasher.combine(sizes.3)
    }
}
