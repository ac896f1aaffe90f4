import CompositionalLayout
import Testing

@Suite("Estimated sizes and self-sizing")
struct SelfSizingTests {
    static let estimatedList: CompositionalLayout = {
        let row = size(.fractionalWidth(1), .estimated(44))
        let group = LayoutGroup.horizontal(layoutSize: row, subitems: [LayoutItem(layoutSize: row)])
        var section = LayoutSection(group: group)
        section.interGroupSpacing = 2
        return CompositionalLayout(section: section)
    }()

    @Test("estimates stand in until measured sizes are supplied")
    func estimatesFirst() {
        let result = Self.estimatedList.solve(itemCounts: [5], container: phone)
        expectItem(result, 0, 3, rect(0, 138, 390, 44))      // 3·(44 + 2)
    }

    @Test("measured heights replace estimates, and only what follows a changed size moves")
    func measuredSizes() {
        let before = Self.estimatedList.solve(itemCounts: [6], container: phone)
        let measured = [ItemPath(section: 0, item: 2): LayoutPixelSize(width: 390, height: 100)]
        let after = Self.estimatedList.solve(itemCounts: [6], container: phone, measuredSizes: measured)
        // Items before the measured one do not move; it grows to 100; the rest move 56 down.
        for i in 0..<2 {
            #expect(after.itemFrame(at: ItemPath(section: 0, item: i)) == before.itemFrame(at: ItemPath(section: 0, item: i)))
        }
        expectItem(after, 0, 2, rect(0, 92, 390, 100))
        for i in 3..<6 {
            let a = before.itemFrame(at: ItemPath(section: 0, item: i))!, b = after.itemFrame(at: ItemPath(section: 0, item: i))!
            #expect(b == a.offsetBy(dx: 0, dy: 56))
        }
        #expect(after.contentSize.height == before.contentSize.height + 56)
    }

    @Test("a measured width is ignored where the width is not estimated")
    func measuredWidthIgnored() {
        let measured = [ItemPath(section: 0, item: 0): LayoutPixelSize(width: 120, height: 60)]
        let result = Self.estimatedList.solve(itemCounts: [1], container: phone, measuredSizes: measured)
        expectItem(result, 0, 0, rect(0, 0, 390, 60))
    }

    @Test("an estimated row grows to its tallest measured item")
    func estimatedGroupFitsTallest() {
        let item = LayoutItem(layoutSize: size(.fractionalWidth(0.5), .estimated(40)))
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .estimated(40)), subitem: item, count: 2)
        let layout = CompositionalLayout(section: LayoutSection(group: group))
        let measured = [ItemPath(section: 0, item: 1): LayoutPixelSize(width: 0, height: 90)]
        let result = layout.solve(itemCounts: [4], container: phone, measuredSizes: measured)
        expectItem(result, 0, 0, rect(0, 0, 195, 40))
        expectItem(result, 0, 1, rect(195, 0, 195, 90))
        expectItem(result, 0, 2, rect(0, 90, 195, 40))    // the second row starts below the tallest
    }

    @Test("measured sizes of other sections and of absent items change nothing")
    func irrelevantMeasurements() {
        let before = Self.estimatedList.solve(itemCounts: [3], container: phone)
        let after = Self.estimatedList.solve(itemCounts: [3], container: phone, measuredSizes: [
            ItemPath(section: 1, item: 0): LayoutPixelSize(width: 1, height: 1),
            ItemPath(section: 0, item: 7): LayoutPixelSize(width: 1, height: 1),
        ])
        #expect(before == after)
    }

    @Test("measured sizes do not affect absolute dimensions")
    func absoluteNotMeasured() {
        let before = SeedLayouts.basicList.solve(itemCounts: [3], container: phone)
        let after = SeedLayouts.basicList.solve(itemCounts: [3], container: phone,
                                                measuredSizes: [ItemPath(section: 0, item: 0): LayoutPixelSize(width: 10, height: 300)])
        #expect(before == after)
    }
}
