import CompositionalLayout

// Pinned headers and footers (`pinToVisibleBounds`) and decorations (section backgrounds) as
// cells of a window: the solver computes both; the browser draws them.
extension ListLayout {
    static let decorationPrefix = "decoration:"

    /// The pin of a section's header or footer, or `nil` when it is not pinned (or is another kind).
    /// - Complexity: O(b) for b boundary supplementaries of the section.
    func pin(kind: CellKind, section: Int) -> Pin? {
        guard kind == .header || kind == .footer, result.sections.indices.contains(section),
              let supplementary = result.supplementary(ofKind: kind.name, at: ItemPath(section: section, item: 0)),
              supplementary.isPinned else { return nil }
        let band = result.sections[section].frame
        return Pin(edge: supplementary.alignment?.isBottom == true ? .bottom : .top, minY: band.minY, maxY: band.maxY)
    }

    /// Adds the pinned headers and footers of the sections whose band meets `rect` vertically
    /// and that are not in `cells` yet (their resting frames are elsewhere: the browser moves
    /// them into view), so that a window holds them while their section is on screen.
    /// - Complexity: O(log s + k·b) for the k sections the rect crosses, of b boundary supplementaries each.
    func appendPinned(meeting rect: LayoutRect, skipping present: inout Set<String>, to cells: inout [Cell]) {
        for index in result.sectionIndices(intersectingFrom: rect.minY, to: rect.maxY) where index < sectionIDs.count {
            let band = result.sections[index].frame
            guard band.maxY > rect.minY, band.minY < rect.maxY else { continue }
            for kind in [CellKind.header, .footer] {
                guard let pin = pin(kind: kind, section: index),
                      let supplementary = result.supplementary(ofKind: kind.name, at: ItemPath(section: index, item: 0)) else { continue }
                let id = Self.supplementaryID(kind: kind, section: sectionIDs[index])
                guard present.insert(id).inserted else { continue }
                cells.append(Cell(id: id, kind: kind, section: sectionIDs[index], sectionIndex: index,
                                  index: nil, frame: supplementary.frame, pin: pin))
            }
        }
    }

    /// The decoration named `decoration:<kind>:<section>`, or `nil`.
    /// - Complexity: O(log d + k) for d decorations, k of them in the section.
    func decorationCell(_ id: String) -> Cell? {
        let rest = id.dropFirst(Self.decorationPrefix.count)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let kind = String(rest[..<colon]), section = String(rest[rest.index(after: colon)...])
        guard let sectionIndex = snapshot.indexOfSection(section) else { return nil }
        // Decorations are in section order: find the section's first by binary search.
        let decorations = result.decorations
        var low = 0, high = decorations.count
        while low < high {
            let middle = (low + high) / 2
            if decorations[middle].section < sectionIndex { low = middle + 1 } else { high = middle }
        }
        for decoration in decorations[low...] {
            guard decoration.section == sectionIndex else { break }
            if decoration.kind == kind {
                return Cell(id: id, kind: .decoration(kind), section: section, sectionIndex: sectionIndex,
                            index: nil, frame: decoration.frame)
            }
        }
        return nil
    }
}
