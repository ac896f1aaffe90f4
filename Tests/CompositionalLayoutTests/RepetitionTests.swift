import CompositionalLayout
import Testing

/// How groups repeat, and how items fill their slots.
@Suite("Repetition and filling")
struct RepetitionTests {
    @Test("a group repeats down the section until the items run out")
    func groupRepeats() {
        let result = SeedLayouts.basicList.solve(itemCounts: [1_000], container: phone)
        #expect(result.itemCount == 1_000)
        expectItem(result, 0, 999, rect(0, 43_956, 390, 44))   // 44 · 999
        #expect(result.itemFrame(at: ItemPath(section: 0, item: 1_000)) == nil)
    }

    @Test("a partly filled last group fills its first slots and keeps its size")
    func partialLastGroup() {
        let result = SeedLayouts.leftOneRightThree.solve(itemCounts: [6], container: phone)
        // Items 4 and 5 take the second repetition's first two slots: the leading item and the
        // first trailing one.
        expectItem(result, 0, 4, rect(1, 507.4, 193, 504.4))
        expectItem(result, 0, 5, rect(196, 507.4, 193, 166.8))
        #expect(result.itemFrame(at: ItemPath(section: 0, item: 6)) == nil)
        // The partial group still takes its full height.
        #expect(abs(result.contentSize.height - 2 * 506.4) < 1e-9)
    }

    @Test("items fill nested groups depth-first, leading group first")
    func depthFirst() {
        // [[a, b] vertical, [c, [d, e] horizontal] vertical] horizontal
        let item = fractionalItem()
        let ab = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), subitem: item, count: 2)
        let de = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.5)), subitem: item, count: 2)
        let c = fractionalItem(1, 0.5)
        let cde = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), subitems: [c, de])
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(200)), subitems: [ab, cde])
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [5], container: phone)
        expectItem(result, 0, 0, rect(0, 0, 195, 100))       // a
        expectItem(result, 0, 1, rect(0, 100, 195, 100))     // b
        expectItem(result, 0, 2, rect(195, 0, 195, 100))     // c
        expectItem(result, 0, 3, rect(195, 100, 97.5, 100))  // d
        expectItem(result, 0, 4, rect(292.5, 100, 97.5, 100)) // e
    }

    @Test("subitem:count: shares the group's length, spacing included, whatever the item's size")
    func subitemCountFits() {
        let item = LayoutItem(layoutSize: size(.absolute(50), .absolute(30)))
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(30)), subitem: item, count: 3)
        group.interItemSpacing = .fixed(10)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [3], container: phone)
        // (390 − 2·10) / 3 = 123.333: the item's own 50 is ignored on the group's axis.
        let w = 370.0 / 3
        expectItem(result, 0, 0, rect(0, 0, w, 30))
        expectItem(result, 0, 1, rect(w + 10, 0, w, 30))
        expectItem(result, 0, 2, rect(2 * (w + 10), 0, w, 30))
    }

    @Test("repeatingSubitem:count: repeats the item at its own size")
    func repeatingSubitemKeepsSize() {
        let item = LayoutItem(layoutSize: size(.absolute(50), .absolute(30)))
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(30)), repeatingSubitem: item, count: 3)
        group.interItemSpacing = .fixed(10)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [4], container: phone)
        expectItem(result, 0, 0, rect(0, 0, 50, 30))
        expectItem(result, 0, 1, rect(60, 0, 50, 30))
        expectItem(result, 0, 2, rect(120, 0, 50, 30))
        expectItem(result, 0, 3, rect(0, 30, 50, 30))        // only 3 per group, though more would fit
    }

    @Test("repeatingSubitem:count: may overflow the group")
    func repeatingSubitemOverflows() {
        let item = LayoutItem(layoutSize: size(.absolute(200), .absolute(30)))
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(30)), repeatingSubitem: item, count: 3)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [3], container: phone)
        expectItem(result, 0, 2, rect(400, 0, 200, 30))
    }

    @Test("subitems: repeats its subitems in order while the next one fits", arguments: [
        // (fractions of the subitems, expected number of slots in a 390-wide row)
        ([0.2], 5),            // Apple's grid sample: five per row, despite 0.2's rounding
        ([0.3, 0.3], 3),       // a, b, a (a fourth would need 1.2)
        ([0.5, 0.5], 2),
        ([0.7, 0.7], 2),       // both listed subitems are placed even if they overflow
        ([1.0 / 3.0], 3),
    ])
    func subitemsFill(fractions: [Double], slots: Int) {
        let items = fractions.map { fractionalItem($0, 1) }
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(40)), subitems: items)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [slots + 1], container: phone)
        #expect(result.itemFrame(at: ItemPath(section: 0, item: slots - 1))?.y == 0)
        #expect(result.itemFrame(at: ItemPath(section: 0, item: slots))?.y == 40)
    }

    @Test("subitems: counts spacing when deciding whether the next one fits")
    func subitemsFillWithSpacing() {
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(40)), subitems: [fractionalItem(0.25, 1)])
        group.interItemSpacing = .fixed(10)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [4], container: phone)
        // 97.5 + 10 + 97.5 + 10 + 97.5 = 312.5; a fourth needs 420 > 390.
        expectItem(result, 0, 2, rect(215, 0, 97.5, 40))
        expectItem(result, 0, 3, rect(0, 40, 97.5, 40))
    }
}
