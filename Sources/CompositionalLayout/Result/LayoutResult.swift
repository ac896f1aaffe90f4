/// The frames of a solved layout: every item, supplementary and decoration, and the content size.
///
/// A result is an immutable value, cheap to share between tasks. A section whose groups are all
/// alike (absolute and fractional sizes, or estimates with nothing measured: grids, lists of
/// fixed-height rows, nested groups like Apple's leftOneRightThree) keeps only its group's
/// template, the step between groups and its origin, so its size does not depend on its number of
/// items: any item's frame is computed when asked for. A vertical section holding measured
/// self-sizing items keeps the template too, plus the groups solved with their measurements and a
/// sum tree of how much longer each is, so a frame costs O(log g) and a measurement applied in
/// place (``applyMeasuredSizes(_:supplementaries:)``) O(log g). Other sections whose groups differ
/// (an orthogonal one with measured items) keep every item's frame. All kinds mix freely; the
/// queries answer the same.
///
/// ```swift
/// let result = layout.solve(itemCounts: [1_000], container: LayoutContainer(width: 390, height: 844))
/// result.contentSize                                   // 390 × …
/// result.itemFrame(at: ItemPath(section: 0, item: 7))  // LayoutRect?
/// let onScreen = result.frames(in: LayoutRect(x: 0, y: 2_000, width: 390, height: 844))
/// ```
///
/// # Coordinates
/// CSS pixels, origin at the top-leading corner of the content. An orthogonal section's elements
/// are reported at horizontal scroll offset 0 (x may exceed the container width); see
/// ``SectionLayout/scrollableContentWidth``.
///
/// # Equality
/// Two results are equal when every frame (items, supplementaries, decorations, section bands),
/// the content size and the container are equal, whichever way their sections keep their items.
/// Two template sections with the same template, origin, step and item count are compared in
/// O(template); otherwise item frames are compared one by one.
public struct LayoutResult: Sendable {
    /// The container the layout was solved for.
    public let container: LayoutContainer
    /// The size of the scrollable content: the container's width × the height of all sections.
    public internal(set) var contentSize: LayoutPixelSize
    /// Each section's geometry.
    public internal(set) var sections: [SectionLayout]
    /// All decorations, in section order.
    public internal(set) var decorations: [LayoutDecoration]

    /// The number of items laid out, over all sections.
    public let itemCount: Int

    /// The supplementaries kept as values: the layout's headers, then per section its boundary
    /// supplementaries and (for sections with stored items) its item-anchored ones, then the
    /// layout's footers. A template section's item-anchored supplementaries are computed.
    var storedSupplementaries: [LayoutSupplementary]
    /// Whether some template section has item-anchored supplementaries (then
    /// ``supplementaries`` must compute them).
    var hasComputedSupplementaries: Bool
    /// Item frames of the sections that store them, in section/item order.
    var itemFrames: [LayoutRect]
    /// Per group of the sections that store their items, the group's lowest coordinate along its
    /// section's scroll axis (y; x for orthogonal sections), made a suffix minimum within its
    /// section…
    var groupLow: [Double]
    /// …and its highest coordinate, made a prefix maximum within its section. Both are monotone
    /// over each section's groups, so binary-searchable.
    var groupHigh: [Double]
    /// Per section, the suffix minimum / prefix maximum of the y extent of everything in it.
    var sectionLow: [Double]
    var sectionHigh: [Double]
    /// Indices into `storedSupplementaries` of the layout-wide headers and footers.
    var layoutSupplementaryIndices: [Int]

    // What it was solved from, so that measured sizes can be applied to it in place
    // (``applyMeasuredSizes(_:supplementaries:)``).
    /// The layout.
    let layout: CompositionalLayout
    /// Every measured item size it was solved with, by section then item.
    var measuredBySection: [Int: [Int: LayoutPixelSize]]
    /// Every measured header and footer size it was solved with.
    var measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize]

    init(
        container: LayoutContainer, contentSize: LayoutPixelSize, sections: [SectionLayout],
        supplementaries: [LayoutSupplementary], decorations: [LayoutDecoration], itemFrames: [LayoutRect],
        groupLow: [Double], groupHigh: [Double], sectionLow: [Double], sectionHigh: [Double],
        layoutSupplementaryIndices: [Int], layout: CompositionalLayout,
        measuredBySection: [Int: [Int: LayoutPixelSize]], measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize]
    ) {
        self.layout = layout
        self.measuredBySection = measuredBySection
        self.measuredSupplementarySizes = measuredSupplementarySizes
        self.container = container
        self.contentSize = contentSize
        self.sections = sections
        self.storedSupplementaries = supplementaries
        self.decorations = decorations
        self.itemFrames = itemFrames
        self.groupLow = groupLow
        self.groupHigh = groupHigh
        self.sectionLow = sectionLow
        self.sectionHigh = sectionHigh
        self.layoutSupplementaryIndices = layoutSupplementaryIndices
        self.itemCount = sections.reduce(0) { $0 + $1.itemCount }
        self.hasComputedSupplementaries = Self.computesSupplementaries(sections)
    }

    /// All supplementaries: the layout's headers, then per section its boundary supplementaries
    /// (in declaration order) and its item-anchored ones (in item order), then the layout's footers.
    ///
    /// ```swift
    /// for header in result.supplementaries where header.kind == LayoutElementKind.sectionHeader { … }
    /// ```
    /// - Complexity: O(1) when no template section has item-anchored supplementaries (badges);
    ///   otherwise O(n) for n supplementaries, computed on each call. To find the ones on screen,
    ///   use ``frames(in:orthogonalOffsets:)``; for one item's, ``supplementary(ofKind:at:)``.
    public var supplementaries: [LayoutSupplementary] {
        guard hasComputedSupplementaries else { return storedSupplementaries }
        var all: [LayoutSupplementary] = []
        var copied = 0
        for section in sections {
            guard Self.computesSupplementaries(section) else { continue }
            // Item-anchored supplementaries follow the section's boundary ones.
            let end = section.boundarySupplementaries.upperBound
            all.append(contentsOf: storedSupplementaries[copied..<end])
            copied = end
            all.append(contentsOf: itemSupplementaries(of: section))
        }
        all.append(contentsOf: storedSupplementaries[copied...])
        return all
    }

    /// The frame of the item at `path`, or `nil` if there is no such item.
    ///
    /// ```swift
    /// result.itemFrame(at: ItemPath(section: 0, item: 0))   // LayoutRect(x: 10, y: 10, width: 180, height: 32)
    /// ```
    /// - Complexity: O(1)
    public func itemFrame(at path: ItemPath) -> LayoutRect? {
        guard sections.indices.contains(path.section) else { return nil }
        let section = sections[path.section]
        guard path.item >= 0, path.item < section.itemCount else { return nil }
        return section.itemFrame(path.item, stored: itemFrames)
    }

    /// Every item with its frame, in section/item order.
    ///
    /// ```swift
    /// for element in result.items { print(element.indexPath, element.frame) }
    /// ```
    /// - Complexity: O(1) to get; O(log s) per subscript for s sections; frames are computed on
    ///   demand for sections that keep a template.
    public var items: ItemFrames { ItemFrames(frames: itemFrames, sections: sections, itemCount: itemCount) }

    /// The width of an orthogonal section's horizontally scrolling content, or `nil` if the
    /// section does not scroll orthogonally (or does not exist).
    ///
    /// ```swift
    /// result.orthogonalContentWidth(section: 0)   // e.g. 10 carousels of 312 px: 3_120
    /// ```
    /// - Complexity: O(1)
    public func orthogonalContentWidth(section: Int) -> Double? {
        guard sections.indices.contains(section), sections[section].isOrthogonal else { return nil }
        return sections[section].scrollableContentWidth
    }
}

extension LayoutResult {
    /// Whether a section's item-anchored supplementaries are computed rather than stored.
    static func computesSupplementaries(_ section: SectionLayout) -> Bool {
        switch section.items {
        case .repeated(let groups): !groups.supplementaries.isEmpty && groups.groupCount > 0
        case .measured(let groups): groups.hasSupplementaries && groups.groupCount > 0
        case .stored: false
        }
    }

    static func computesSupplementaries(_ sections: [SectionLayout]) -> Bool {
        sections.contains { computesSupplementaries($0) }
    }

    /// How many item frames the result stores: 0 when every section keeps its template; the
    /// number of items of the sections that hold measured items otherwise. For tests and
    /// benchmarks checking that a solve did not grow with the item count.
    @_spi(Reference)
    public var storedItemFrameCount: Int { itemFrames.count }

    /// Whether section `index` keeps its group template with its measured groups over it
    /// (``MeasuredGroups``) rather than stored frames.
    @_spi(Reference)
    public func keepsMeasuredGroups(section index: Int) -> Bool {
        guard sections.indices.contains(index), case .measured = sections[index].items else { return false }
        return true
    }

    /// Whether section `index` keeps its group template (frames computed on demand) rather than
    /// stored frames.
    @_spi(Reference)
    public func keepsTemplate(section index: Int) -> Bool {
        guard sections.indices.contains(index), case .repeated = sections[index].items else { return false }
        return true
    }
}
