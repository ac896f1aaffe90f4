/// The items of a ``LayoutResult`` as a random-access collection of ``LayoutElement``s, in
/// section/item order. Frames of template sections are computed when read.
///
/// ```swift
/// let third = result.items[2]          // LayoutElement(category: .item, indexPath: …, frame: …)
/// ```
public struct ItemFrames: RandomAccessCollection, Sendable {
    let frames: [LayoutRect]
    let sections: [SectionLayout]
    let itemCount: Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { itemCount }

    /// The element at a flat index (0 ..< total number of items).
    ///
    /// - Complexity: O(log s) for s sections.
    public subscript(position: Int) -> LayoutElement {
        precondition(position >= 0 && position < itemCount, "ItemFrames index out of range")
        // The owner is the last section starting at or before `position`.
        var low = 0, high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sections[mid].firstItem <= position { low = mid } else { high = mid - 1 }
        }
        let section = sections[low]
        let item = position - section.firstItem
        return LayoutElement(
            category: .item,
            indexPath: ItemPath(section: section.index, item: item),
            frame: section.itemFrame(item, stored: frames))
    }

    /// Walks the sections in order: O(1) per element.
    public func makeIterator() -> Iterator {
        Iterator(frames: frames, sections: sections)
    }

    /// Iterates the items section by section, without searching for each one's section.
    public struct Iterator: IteratorProtocol, Sendable {
        let frames: [LayoutRect]
        let sections: [SectionLayout]
        var section = 0
        var item = 0

        public mutating func next() -> LayoutElement? {
            while section < sections.count && item >= sections[section].itemCount {
                section += 1
                item = 0
            }
            guard section < sections.count else { return nil }
            let owner = sections[section]
            defer { item += 1 }
            return LayoutElement(
                category: .item, indexPath: ItemPath(section: owner.index, item: item),
                frame: owner.itemFrame(item, stored: frames))
        }
    }
}
