import CompositionalLayout
import Testing

@Suite("Orthogonal sections")
struct OrthogonalTests {
    static func carousel(_ behavior: OrthogonalScrollingBehavior, width: Double = 0.8) -> LayoutSection {
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(width), .absolute(150)), subitems: [fractionalItem()])
        var section = LayoutSection(group: group)
        section.orthogonalScrollingBehavior = behavior
        section.interGroupSpacing = 10
        section.contentInsets = .uniform(20)
        return section
    }

    @Test("groups run across the page; the section is as tall as its group", arguments: [
        OrthogonalScrollingBehavior.continuous, .continuousGroupLeadingBoundary, .paging, .groupPaging,
    ])
    func acrossThePage(behavior: OrthogonalScrollingBehavior) {
        let result = CompositionalLayout(section: Self.carousel(behavior)).solve(itemCounts: [4, 1], container: phone)
        // Content width 350; groups 280 wide, at x = 20 + i·290, y = 20.
        for i in 0..<4 {
            expectItem(result, 0, i, rect(20 + Double(i) * 290, 20, 280, 150))
        }
        // 20 + 150 + 20 = 190 tall; the next section follows.
        #expect(result.sections[0].frame.height == 190)
        expectItem(result, 1, 0, rect(20, 210, 280, 150))
        // 20 + 4·280 + 3·10 + 20 = 1190.
        #expect(result.orthogonalContentWidth(section: 0) == 1190)
        #expect(result.sections[0].isOrthogonal)
    }

    @Test("groupPagingCentered centres the first and last groups")
    func groupPagingCentered() {
        let result = CompositionalLayout(section: Self.carousel(.groupPagingCentered)).solve(itemCounts: [3], container: phone)
        // (350 − 280) / 2 = 35 more on each side: x = 55 + i·290.
        expectItem(result, 0, 0, rect(55, 20, 280, 150))
        expectItem(result, 0, 2, rect(635, 20, 280, 150))
        // 55 + 3·280 + 2·10 + 20 + 35 = 970.
        #expect(result.orthogonalContentWidth(section: 0) == 970)
    }

    @Test("frames(in:) looks an orthogonal section up along its own scroll offset")
    func orthogonalQuery() {
        let result = CompositionalLayout(section: Self.carousel(.continuous)).solve(itemCounts: [100], container: phone)
        let viewport = rect(0, 0, 390, 844)
        let atStart = result.frames(in: viewport).map(\.indexPath.item).sorted()
        #expect(atStart == [0, 1])                       // 20–300 and 310–590 reach into 0–390
        let scrolled = result.frames(in: viewport, orthogonalOffsets: [0: 2_900]).map(\.indexPath.item).sorted()
        // The rect becomes 2900–3290: item 9 spans 2630–2910, item 10 2920–3200, item 11 3210–3490.
        #expect(scrolled == [9, 10, 11])
    }
}
