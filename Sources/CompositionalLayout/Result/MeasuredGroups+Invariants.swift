// Self-checks of the measured representation, for tests to run after every update.

extension GroupOffsets {
    /// What is wrong with the tree: an inner node that is not exactly the sum of its children, a
    /// value outside the groups.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        if nodes.count != 2 * width || width < max(1, count) { problems.append("tree of width \(width) for \(count) groups") }
        for g in count..<width where nodes[width + g] != 0 { problems.append("value \(nodes[width + g]) past the last group at \(g)") }
        for i in 1..<width where nodes[i] != nodes[2 * i] + nodes[2 * i + 1] { problems.append("node \(i) is not the sum of its children") }
        return problems
    }
}

extension MeasuredGroups {
    /// What is wrong with the groups of `section`: the tree, a delta that is not its group's, a
    /// bound that does not hold, groups that move backwards, an origin or a length that is not the
    /// section's.
    ///
    /// - Complexity: O(g) for g groups.
    func invariantViolations(in section: SectionLayout) -> [String] {
        var problems = offsets.invariantViolations()
        if offsets.count != groupCount { problems.append("tree over \(offsets.count) groups, section has \(groupCount)") }
        for g in 0..<groupCount {
            let delta = shapes[g].map { $0.size.height - templateLength } ?? 0
            if offsets.value(g) != delta { problems.append("group \(g): delta \(offsets.value(g)), solved \(delta)") }
            if template.step + offsets.value(g) < 0 { problems.append("group \(g) moves the next one backwards") }
        }
        for (g, shape) in shapes {
            if g < 0 || g >= groupCount { problems.append("a solved group \(g) outside the section") }
            if shape.bounds.minY < lowest || shape.bounds.maxY > highest || shape.bounds.maxY - shape.size.height > overhang {
                problems.append("group \(g) outside the bounds kept for searches")
            }
        }
        if template.origin.y != section.contentFrame.minY || template.origin.x != section.contentFrame.minX {
            problems.append("origin \(template.origin) is not the section's content origin")
        }
        if contentLength != section.contentFrame.height { problems.append("length \(contentLength), section \(section.contentFrame.height)") }
        return problems
    }
}

extension LayoutResult {
    /// What is wrong with the measured groups of every section that keeps them (empty when all
    /// is well): for tests, after each ``applyMeasuredSizes(_:supplementaries:)``.
    ///
    /// - Complexity: O(g) for the groups of those sections.
    @_spi(Reference)
    public func measuredGroupsInvariantViolations() -> [String] {
        sections.flatMap { section -> [String] in
            guard case .measured(let groups) = section.items else { return [] }
            return groups.invariantViolations(in: section).map { "section \(section.index): \($0)" }
        }
    }
}
