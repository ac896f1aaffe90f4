import CompositionalLayout
import Testing

/// What fractions are fractions *of*, and how insets and spacing act.
@Suite("Sizing: dimensions, insets and spacing")
struct SizingTests {
    @Test("an item's fractions are of its enclosing group, a nested group's of its parent")
    func fractionsOfEnclosingGroup() {
        // Group 0.5 of 390 = 195 wide; nested group 0.5 of that = 97.5; item 0.5 of that = 48.75.
        let item = fractionalItem(0.5, 0.5)
        let inner = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), repeatingSubitem: item, count: 1)
        let outer = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(0.5), .absolute(100)), repeatingSubitem: inner, count: 1)
        let result = CompositionalLayout(section: LayoutSection(group: outer)).solve(itemCounts: [1], container: phone)
        expectItem(result, 0, 0, rect(0, 0, 48.75, 50))     // height: 0.5 · 100
    }

    @Test("a top-level group's fractions are of the section's content area")
    func topLevelGroupFractions() {
        var section = LayoutSection(group: LayoutGroup.horizontal(
            layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(0.5)), subitems: [fractionalItem()]))
        section.contentInsets = DirectionalEdgeInsets(top: 10, leading: 20, bottom: 30, trailing: 40)
        let result = CompositionalLayout(section: section).solve(itemCounts: [2], container: phone)
        // Width 0.5 · (390 − 60) = 165; height 0.5 · (844 − 40) = 402; at (20, 10).
        expectItem(result, 0, 0, rect(20, 10, 165, 402))
        // The next group stacks below (groups never sit side by side in a vertical section).
        expectItem(result, 0, 1, rect(20, 412, 165, 402))
    }

    @Test("fractionalHeight of a top-level group follows the container's height", arguments: [phone, tablet])
    func fractionalHeightOfContainer(container: LayoutContainer) {
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .fractionalHeight(0.25)), subitems: [fractionalItem()])
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [1], container: container)
        #expect(result.itemFrame(at: ItemPath(section: 0, item: 0))?.height == container.height / 4)
    }

    @Test("content insets shrink an item inside its room and never move its neighbours")
    func contentInsetsDoNotMoveNeighbours() {
        func layout(insets: Double) -> LayoutResult {
            var item = LayoutItem(layoutSize: size(.absolute(100), .absolute(50)))
            item.contentInsets = .uniform(insets)
            let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(50)), subitems: [item])
            return CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [6], container: phone)
        }
        let plain = layout(insets: 0), inset = layout(insets: 5)
        // 3 per row (300 ≤ 390 < 400). With insets 5: each frame loses 5 on every side…
        expectItem(inset, 0, 0, rect(5, 5, 90, 40))
        expectItem(inset, 0, 1, rect(105, 5, 90, 40))
        // …and every room is where it was without insets.
        for i in 0..<6 {
            let a = plain.itemFrame(at: ItemPath(section: 0, item: i))!
            let b = inset.itemFrame(at: ItemPath(section: 0, item: i))!
            #expect(b.x == a.x + 5 && b.y == a.y + 5)
        }
        #expect(plain.contentSize == inset.contentSize)
    }

    @Test("edge spacing moves the item and its neighbours apart")
    func edgeSpacingMovesNeighbours() {
        var item = LayoutItem(layoutSize: size(.absolute(100), .absolute(50)))
        item.edgeSpacing = LayoutEdgeSpacing(leading: .fixed(10), top: .fixed(4), trailing: nil, bottom: nil)
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(60)), subitems: [item])
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [4], container: phone)
        // Each item takes 10 + 100 = 110: three fit in 390 (330), a fourth would need 440.
        expectItem(result, 0, 0, rect(10, 4, 100, 50))
        expectItem(result, 0, 1, rect(120, 4, 100, 50))
        expectItem(result, 0, 2, rect(230, 4, 100, 50))
        expectItem(result, 0, 3, rect(10, 64, 100, 50))   // next row: 60 + 4
    }

    @Test("flexible edge spacing on both sides centres an item")
    func flexibleEdgesCentre() {
        var item = LayoutItem(layoutSize: size(.absolute(100), .absolute(40)))
        item.edgeSpacing = LayoutEdgeSpacing(leading: .flexible(0), top: .flexible(0), trailing: .flexible(0), bottom: .flexible(0))
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(100)), repeatingSubitem: item, count: 1)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [1], container: phone)
        // (390 − 100) / 2 = 145; (100 − 40) / 2 = 30.
        expectItem(result, 0, 0, rect(145, 30, 100, 40))
    }

    @Test("flexible inter-item spacing spreads the items across the group")
    func flexibleInterItemSpacing() {
        let item = LayoutItem(layoutSize: size(.absolute(90), .absolute(40)))
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(40)), repeatingSubitem: item, count: 3)
        group.interItemSpacing = .flexible(0)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [3], container: phone)
        // Leftover 390 − 270 = 120, shared by 2 gaps: 60 each.
        expectItem(result, 0, 0, rect(0, 0, 90, 40))
        expectItem(result, 0, 1, rect(150, 0, 90, 40))
        expectItem(result, 0, 2, rect(300, 0, 90, 40))
    }

    @Test("a group's content insets shrink the area its subitems are sized in")
    func groupContentInsets() {
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(100)), subitem: fractionalItem(), count: 2)
        group.contentInsets = DirectionalEdgeInsets(top: 10, leading: 15, bottom: 20, trailing: 25)
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [3], container: phone)
        // Content area 390 − 40 = 350 × 100 − 30 = 70; two slots of 175.
        expectItem(result, 0, 0, rect(15, 10, 175, 70))
        expectItem(result, 0, 1, rect(190, 10, 175, 70))
        expectItem(result, 0, 2, rect(15, 110, 175, 70))   // the group itself is still 100 tall
    }

    @Test("an item is a value: insets set after building the group do not apply")
    func itemIsCopiedIntoGroup() {
        var item = fractionalItem()
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(44)), subitems: [item])
        item.contentInsets = .uniform(5)   // as in the seeds' note: too late
        _ = item
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [1], container: phone)
        expectItem(result, 0, 0, rect(0, 0, 390, 44))
    }

    @Test("custom groups place their slots where the closure says")
    func customGroup() {
        let group = LayoutGroup.custom(layoutSize: size(.fractionalWidth(1), .absolute(300))) { environment in
            let side = environment.container.effectiveContentSize.width / 3
            return (0..<3).map { i in
                LayoutGroupCustomItem(frame: LayoutRect(x: Double(i) * side, y: Double(i) * side / 2, width: side, height: side))
            }
        }
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [4], container: phone)
        expectItem(result, 0, 0, rect(0, 0, 130, 130))
        expectItem(result, 0, 1, rect(130, 65, 130, 130))
        expectItem(result, 0, 2, rect(260, 130, 130, 130))
        expectItem(result, 0, 3, rect(0, 300, 130, 130))    // second repetition, 300 lower
        #expect(result.contentSize.height == 600)
    }

    @Test("content insets are ignored on estimated axes")
    func insetsIgnoredWhenEstimated() {
        var item = LayoutItem(layoutSize: size(.fractionalWidth(1), .estimated(50)))
        item.contentInsets = .uniform(8)
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .estimated(50)), subitems: [item])
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [2], container: phone)
        // Width (absolute-like fraction) is inset; the estimated height is not.
        expectItem(result, 0, 0, rect(8, 0, 374, 50))
        expectItem(result, 0, 1, rect(8, 50, 374, 50))
    }
}
