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

    @Test("an App-Store page: a header over a groupPaging carousel of 0.9-wide cards, a header over a continuous row, then a list")
    func appStorePage() throws {
        let header = LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(44)),
                                                     elementKind: LayoutElementKind.sectionHeader, alignment: .top)
        let layout = CompositionalLayout { index, _ in
            let group: LayoutGroup
            var section: LayoutSection
            switch index {
            case 0:
                group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(0.9), .absolute(240)), subitems: [fractionalItem()])
                section = LayoutSection(group: group)
                section.orthogonalScrollingBehavior = .groupPaging
                section.interGroupSpacing = 12
            case 1:
                group = LayoutGroup.horizontal(layoutSize: size(.absolute(180), .absolute(150)), subitems: [fractionalItem()])
                section = LayoutSection(group: group)
                section.orthogonalScrollingBehavior = .continuous
                section.interGroupSpacing = 10
            default:
                group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(44)), subitems: [fractionalItem()])
                return LayoutSection(group: group)
            }
            section.contentInsets = DirectionalEdgeInsets(top: 0, leading: 16, bottom: 16, trailing: 16)
            section.boundarySupplementaryItems = [header]
            return section
        }
        let result = layout.solve(itemCounts: [8, 16, 3], container: LayoutContainer(width: 1000, height: 768))
        // Featured: the header 0–44, inside the section's insets as UIKit's supplementariesFollowContentInsets
        // (16 to 984); cards 0.9 × (1000 − 16 − 16) = 871.2 wide at x = 16 + i·(871.2 + 12), y = 44.
        let featuredHeader = try #require(result.supplementary(ofKind: LayoutElementKind.sectionHeader, at: ItemPath(section: 0, item: 0)))
        #expect(featuredHeader.frame == rect(16, 0, 968, 44))
        expectItem(result, 0, 0, rect(16, 44, 871.2, 240))
        expectItem(result, 0, 7, rect(16 + 7 * 883.2, 44, 871.2, 240))
        // 16 + 8·871.2 + 7·12 + 16 = 7085.6 to scroll through; the band is 44 + 240 + 16 = 300 tall.
        #expect(abs((result.orthogonalContentWidth(section: 0) ?? 0) - 7085.6) < 1e-9)
        #expect(result.sections[0].frame.height == 300 && result.sections[0].contentFrame.minY == 44)
        // New: its header at 300; 180-wide tiles at x = 16 + i·190, y = 344; 16 + 16·180 + 15·10 + 16 = 3062.
        expectItem(result, 1, 15, rect(16 + 15 * 190, 344, 180, 150))
        #expect(result.orthogonalContentWidth(section: 1) == 3062)
        // The list starts below the second band: 300 + 44 + 150 + 16 = 510, and does not scroll sideways.
        expectItem(result, 2, 0, rect(0, 510, 1000, 44))
        #expect(result.orthogonalContentWidth(section: 2) == nil)
        // The viewport at scroll offset 0 meets cards 0–1 of the carousel (16–887.2, 899.2–1770.4). Scrolled so
        // that card 3 (x = 16 + 3·883.2 = 2665.6) is at the left edge, the rect is 2665.6–3665.6: card 2 ends at
        // 2653.6, card 4 spans 3548.8–4420, card 5 starts at 4432: cards 3–4.
        let viewport = rect(0, 0, 1000, 768)
        #expect(result.frames(in: viewport).filter { $0.indexPath.section == 0 && $0.category == .item }.map(\.indexPath.item).sorted() == [0, 1])
        let scrolled = result.frames(in: viewport, orthogonalOffsets: [0: 16 + 3 * 883.2])
        #expect(scrolled.filter { $0.indexPath.section == 0 && $0.category == .item }.map(\.indexPath.item).sorted() == [3, 4])
    }
}
