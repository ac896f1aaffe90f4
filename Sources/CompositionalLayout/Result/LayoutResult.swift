/// The frames of a solved layout: every item, supplementary and decoration, and the content size.
///
/// A result is an immutable value, cheap to share between tasks. Items are stored as one flat
/// array of frames in section/item order; the index answers ``frames(in:orthogonalOffsets:)``
/// in time proportional to what it returns plus a logarithm.
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
/// Two results are equal when every frame, the content size and the container are equal.
public struct LayoutResult: Sendable, Equatable {
    /// The container the layout was solved for.
    public let container: LayoutContainer
    /// The size of the scrollable content: the container's width × the height of all sections.
    public let contentSize: LayoutPixelSize
    /// Each section's geometry.
    public let sections: [SectionLayout]
    /// All supplementaries: the layout's headers, then per section its boundary supplementaries
    /// (in declaration order) and its item-anchored ones (in item order), then the layout's footers.
    public let supplementaries: [LayoutSupplementary]
    /// All decorations, in section order.
    public let decorations: [LayoutDecoration]

    /// Item frames, in section/item order.
    let itemFrames: [LayoutRect]
    /// Per group (all sections concatenated), the suffix minimum of the group's lowest coordinate
    /// along its section's scroll axis (y; x for orthogonal sections)…
    let groupLow: [Double]
    /// …and the prefix maximum of its highest coordinate. Both are monotone, so binary-searchable.
    let groupHigh: [Double]
    /// Per section, the suffix minimum / prefix maximum of the y extent of everything in it.
    let sectionLow: [Double]
    let sectionHigh: [Double]
    /// Indices into `supplementaries` of the layout-wide headers and footers.
    let layoutSupplementaryIndices: [Int]

    init(
        container: LayoutContainer, contentSize: LayoutPixelSize, sections: [SectionLayout],
        supplementaries: [LayoutSupplementary], decorations: [LayoutDecoration], itemFrames: [LayoutRect],
        groupLow: [Double], groupHigh: [Double], sectionLow: [Double], sectionHigh: [Double],
        layoutSupplementaryIndices: [Int]
    ) {
        self.container = container
        self.contentSize = contentSize
        self.sections = sections
        self.supplementaries = supplementaries
        self.decorations = decorations
        self.itemFrames = itemFrames
        self.groupLow = groupLow
        self.groupHigh = groupHigh
        self.sectionLow = sectionLow
        self.sectionHigh = sectionHigh
        self.layoutSupplementaryIndices = layoutSupplementaryIndices
    }

    /// The number of items laid out, over all sections.
    public var itemCount: Int { itemFrames.count }

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
        return itemFrames[section.firstItem + path.item]
    }

    /// Every item with its frame, in section/item order.
    ///
    /// ```swift
    /// for element in result.items { print(element.indexPath, element.frame) }
    /// ```
    /// - Complexity: O(1) to get; O(log s) per subscript for s sections.
    public var items: ItemFrames { ItemFrames(frames: itemFrames, sections: sections) }

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

/// The items of a ``LayoutResult`` as a random-access collection of ``LayoutElement``s.
public struct ItemFrames: RandomAccessCollection, Sendable {
    let frames: [LayoutRect]
    let sections: [SectionLayout]

    public var startIndex: Int { 0 }
    public var endIndex: Int { frames.count }

    /// The element at a flat index (0 ..< total number of items).
    ///
    /// - Complexity: O(log s) for s sections.
    public subscript(position: Int) -> LayoutElement {
        // The owner is the last section starting at or before `position`.
        var low = 0, high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sections[mid].firstItem <= position { low = mid } else { high = mid - 1 }
        }
        let section = sections[low]
        return LayoutElement(
            category: .item,
            indexPath: ItemPath(section: section.index, item: position - section.firstItem),
            frame: frames[position])
    }
}
