import CompositionalLayout
import DiffableDataSources
import Foundation

/// A snapshot laid out for one viewport, asked only for what a window shows.
///
/// Nothing here walks the list (but ``allCells``, for the API's layout route): the solver's
/// result answers `frames(in:)` in time proportional to what it returns, an item's frame by
/// identifier is an index lookup plus arithmetic, and cells are named only for the window. This
/// is what keeps a keystroke on a 100,000-item list at the cost of one screen.
struct ListLayout: Sendable {
    /// A cell as the browser names it: an item by its identifier, a header or footer as
    /// `header:<section>` / `footer:<section>`, a decoration as `decoration:<element kind>:<section>`.
    struct Cell: Sendable, Equatable {
        var id: String
        var kind: CellKind
        var section: String
        /// The section's position in the snapshot.
        var sectionIndex: Int
        var index: Int?
        /// Its resting frame (where a pinned header is when nothing pushes it).
        var frame: LayoutRect
        /// For a header or footer pinned to the visible bounds: where it sticks, and its section's band.
        var pin: Pin? = nil
        /// Whether it sizes itself (its height is estimated): the browser measures it.
        var fits = false
    }

    /// How a pinned header or footer sticks (``LayoutResult/pinnedFrame(of:contentOffsetY:)``,
    /// done by the browser while it scrolls): to the viewport's top (a header) or bottom (a
    /// footer), never outside its section's vertical band.
    struct Pin: Sendable, Equatable {
        enum Edge: String, Sendable { case top, bottom }
        var edge: Edge
        var minY: Double
        var maxY: Double
    }

    static func supplementaryID(kind: CellKind, section: String) -> String { "\(kind.name):\(section)" }

    static func decorationID(kind: String, section: String) -> String { "decoration:\(kind):\(section)" }

    let snapshot: Snapshot<String, String>
    let sectionIDs: [String]
    /// Changed only by ``applyMeasurements(_:table:)``, with the two below.
    var result: LayoutResult
    /// The measurements it was laid out with (their table's generation and signature).
    var measuredGeneration: Int
    var measuredSignature: Int

    /// Lays out `snapshot` for `container`, self-sizing cells at the sizes `measured` holds
    /// (the others at their estimates).
    init(snapshot: Snapshot<String, String>, layout: CompositionalLayout, container: LayoutContainer,
         measured: MeasuredSizes.Table = MeasuredSizes.Table()) {
        self.snapshot = snapshot
        sectionIDs = snapshot.sectionIdentifiers
        let counts = sectionIDs.map { (try? snapshot.numberOfItems(inSection: $0)) ?? 0 }
        let sizes = Self.solverSizes(of: measured, in: snapshot)
        result = layout.solve(itemCounts: counts, container: container,
                              measuredItemsBySection: sizes.items, measuredSupplementarySizes: sizes.supplementaries)
        measuredGeneration = measured.generation
        measuredSignature = measured.signature
    }

    var contentSize: LayoutPixelSize { result.contentSize }

    /// A section that scrolls horizontally on its own (`orthogonalScrollingBehavior`): the
    /// browser shows it in a scroller of its own, placed at its groups' band.
    struct OrthogonalSection: Sendable, Equatable {
        var id: String
        /// The band of its groups (y and height in content coordinates).
        var frame: LayoutRect
        /// The width of its scrolling content.
        var contentWidth: Double
        var behavior: OrthogonalScrollingBehavior
    }

    /// The orthogonal sections, in order (none for most layouts).
    var orthogonalSections: [OrthogonalSection] {
        result.sections.filter(\.isOrthogonal).compactMap { section in
            guard section.index < sectionIDs.count else { return nil }
            return OrthogonalSection(id: sectionIDs[section.index], frame: section.contentFrame,
                                     contentWidth: section.scrollableContentWidth, behavior: section.orthogonalScrollingBehavior)
        }
    }

    /// The widest orthogonal section's content: a window holds every item of an orthogonal
    /// section its rectangle meets (the browser scrolls it sideways without asking; a carousel
    /// is short), not only those at scroll offset 0.
    private var orthogonalWidth: Double {
        result.sections.lazy.filter(\.isOrthogonal).map(\.scrollableContentWidth).max() ?? 0
    }

    /// The cells (decorations, items, headers and footers) whose frames meet `rect`, in document
    /// order: per section its decorations, its headers, its items, its footers. A pinned header or
    /// footer is in it whenever its section's band meets `rect` (the browser keeps it in view
    /// while the section scrolls by), with its ``Cell/pin``.
    /// - Complexity: O(k log k + log n) for k cells returned.
    func cells(in rect: LayoutRect) -> [Cell] {
        var cells: [Cell] = []
        var supplementaries = Set<String>()
        let wide = orthogonalWidth
        let query = wide > rect.maxX ? LayoutRect(x: rect.x, y: rect.y, width: wide - rect.x, height: rect.height) : rect
        for element in result.frames(in: query) {
            let section = element.indexPath.section
            guard section >= 0, section < sectionIDs.count else { continue }
            switch element.category {
            case .item:
                let path = IndexPath(item: element.indexPath.item, section: section)
                guard let id = snapshot.itemIdentifier(at: path) else { continue }
                cells.append(Cell(id: id, kind: .item, section: sectionIDs[section], sectionIndex: section,
                                  index: element.indexPath.item, frame: element.frame, fits: fits(.item, at: element.indexPath)))
            case .supplementary(let elementKind):
                let kind = CellKind(elementKind: elementKind)
                let id = Self.supplementaryID(kind: kind, section: sectionIDs[section])
                guard supplementaries.insert(id).inserted else { continue }
                cells.append(Cell(id: id, kind: kind, section: sectionIDs[section], sectionIndex: section,
                                  index: nil, frame: element.frame, pin: pin(kind: kind, section: section)))
            case .decoration(let elementKind):
                cells.append(Cell(id: Self.decorationID(kind: elementKind, section: sectionIDs[section]), kind: .decoration(elementKind),
                                  section: sectionIDs[section], sectionIndex: section, index: nil, frame: element.frame))
            }
        }
        appendPinned(meeting: rect, skipping: &supplementaries, to: &cells)
        cells.sort(by: Self.documentOrder)
        return cells
    }

    /// Every cell, in document order (the API's layout route: it returns them all): items,
    /// headers and footers, and decorations (section backgrounds).
    /// - Complexity: O(n) for n items.
    var allCells: [Cell] {
        var cells = supplementaryCells
        for decoration in result.decorations where decoration.section >= 0 && decoration.section < sectionIDs.count {
            let section = sectionIDs[decoration.section]
            cells.append(Cell(id: Self.decorationID(kind: decoration.kind, section: section), kind: .decoration(decoration.kind),
                              section: section, sectionIndex: decoration.section, index: nil, frame: decoration.frame))
        }
        cells.reserveCapacity(cells.count + result.itemCount)
        for element in result.items {
            let path = IndexPath(item: element.indexPath.item, section: element.indexPath.section)
            guard path.section >= 0, path.section < sectionIDs.count, let id = snapshot.itemIdentifier(at: path) else { continue }
            cells.append(Cell(id: id, kind: .item, section: sectionIDs[path.section], sectionIndex: path.section,
                              index: path.item, frame: element.frame, fits: fits(.item, at: element.indexPath)))
        }
        cells.sort(by: Self.documentOrder)
        return cells
    }

    /// Per section: its headers, its items, its footers.
    private static func documentOrder(_ a: Cell, _ b: Cell) -> Bool {
        if a.sectionIndex != b.sectionIndex { return a.sectionIndex < b.sectionIndex }
        let (ra, rb) = (rank(a.kind), rank(b.kind))
        if ra != rb { return ra < rb }
        return (a.index ?? 0) < (b.index ?? 0)
    }

    /// The cell named `id` (an item, `header:<section>`/`footer:<section>`, or
    /// `decoration:<kind>:<section>`), wherever it is.
    /// - Complexity: O(1) for an item (an index lookup and the solver's arithmetic).
    func cell(_ id: String) -> Cell? {
        if let path = snapshot.indexPath(ofItem: id) {
            let item = ItemPath(section: path.section, item: path.item)
            guard let frame = result.itemFrame(at: item) else { return nil }
            return Cell(id: id, kind: .item, section: sectionIDs[path.section], sectionIndex: path.section,
                        index: path.item, frame: frame, fits: fits(.item, at: item))
        }
        if id.hasPrefix(Self.decorationPrefix) { return decorationCell(id) }
        guard let path = Self.supplementaryPath(id, in: snapshot),
              let supplementary = result.supplementary(ofKind: path.kind, at: ItemPath(section: path.section, item: 0)) else { return nil }
        return Cell(id: id, kind: CellKind(elementKind: path.kind), section: sectionIDs[path.section], sectionIndex: path.section,
                    index: nil, frame: supplementary.frame)
    }

    /// Every header and footer of the layout (a handful per section, whatever the item count).
    var supplementaryCells: [Cell] {
        var cells: [Cell] = []
        var seen = Set<String>()
        for supplementary in result.supplementaries {
            let section = supplementary.indexPath.section
            guard section >= 0, section < sectionIDs.count else { continue }
            let kind = CellKind(elementKind: supplementary.kind)
            let id = Self.supplementaryID(kind: kind, section: sectionIDs[section])
            guard seen.insert(id).inserted else { continue }
            cells.append(Cell(id: id, kind: kind, section: sectionIDs[section], sectionIndex: section,
                              index: nil, frame: supplementary.frame))
        }
        return cells
    }

    private static func rank(_ kind: CellKind) -> Int {
        switch kind {
        case .decoration: -1
        case .item: 1
        case .footer: 2
        case .header, .supplementary: 0
        }
    }
}

/// What one stream shows: its viewport, and which cells its client holds at which frames.
struct StreamWindow: Sendable, Hashable {
    var container: LayoutContainer
    /// The scroll offset of the viewport's top edge within the list.
    var top: Double

    /// The viewport plus one screen of overscan above and below.
    var rect: LayoutRect {
        LayoutRect(x: 0, y: max(0, top) - container.height, width: container.width, height: container.height * 3)
    }

    /// A `top` from untrusted text: a finite, non-negative offset (the content is at most a few
    /// million pixels tall; larger offsets are clamped).
    static func top(_ text: String?) -> Double? {
        guard let text else { return 0 }
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return min(value.rounded(), 1e9)
    }
}
