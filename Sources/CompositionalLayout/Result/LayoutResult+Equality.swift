extension LayoutResult: Equatable {
    /// Whether every frame, the content size and the container are equal (see "Equality" on
    /// ``LayoutResult``): the two may keep their sections' items differently.
    ///
    /// - Complexity: O(s + b + d) for s sections, b stored supplementaries and d decorations when
    ///   every section pair has the same template; plus O(items) of the sections where it does not.
    public static func == (lhs: LayoutResult, rhs: LayoutResult) -> Bool {
        guard lhs.container == rhs.container, lhs.contentSize == rhs.contentSize,
              lhs.itemCount == rhs.itemCount, lhs.sections == rhs.sections,
              lhs.decorations == rhs.decorations,
              lhs.layoutSupplementaries == rhs.layoutSupplementaries else { return false }
        for (a, b) in zip(lhs.sections, rhs.sections) {
            guard lhs.storedSupplementaries[a.boundarySupplementaries] == rhs.storedSupplementaries[b.boundarySupplementaries]
            else { return false }
            if case .repeated(let x) = a.items, case .repeated(let y) = b.items, x.hasSameFrames(as: y) { continue }
            for i in 0..<a.itemCount where a.itemFrame(i, stored: lhs.itemFrames) != b.itemFrame(i, stored: rhs.itemFrames) {
                return false
            }
            guard lhs.itemSupplementaries(of: a) == rhs.itemSupplementaries(of: b) else { return false }
        }
        return true
    }

    /// The layout's own headers and footers.
    var layoutSupplementaries: [LayoutSupplementary] {
        layoutSupplementaryIndices.map { storedSupplementaries[$0] }
    }

    /// A section's item-anchored supplementaries, in item order.
    ///
    /// - Complexity: O(a) for a of them.
    func itemSupplementaries(of section: SectionLayout) -> [LayoutSupplementary] {
        switch section.items {
        case .measured(let groups):
            guard groups.hasSupplementaries else { return [] }
            var all: [LayoutSupplementary] = []
            for g in 0..<groups.groupCount {
                groups.appendSupplementaries(ofGroup: g, section: section.index, to: &all)
            }
            return all
        case .stored(let storage):
            return Array(storedSupplementaries[storage.supplementaryStart..<(storage.supplementaryStart + storage.supplementaryCount)])
        case .repeated(let groups):
            guard !groups.supplementaries.isEmpty else { return [] }
            var all: [LayoutSupplementary] = []
            for g in 0..<groups.groupCount {
                groups.appendSupplementaries(ofGroup: g, section: section.index, to: &all)
            }
            return all
        }
    }
}
