import CompositionalLayout
import Testing

/// Sections stacking down the page: spacing, insets, headers, footers, backgrounds.
@Suite("Sections")
struct SectionTests {
    /// Full-width rows of `rowHeight`, with the given section settings.
    static func rows(
        rowHeight: Double = 50, interGroupSpacing: Double = 0, insets: DirectionalEdgeInsets = .zero,
        header: Double? = nil, footer: Double? = nil, pinHeader: Bool = false
    ) -> LayoutSection {
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(rowHeight)), subitems: [fractionalItem()])
        var section = LayoutSection(group: group)
        section.interGroupSpacing = interGroupSpacing
        section.contentInsets = insets
        if let header {
            var item = LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(header)), elementKind: "header", alignment: .top)
            item.pinToVisibleBounds = pinHeader
            section.boundarySupplementaryItems.append(item)
        }
        if let footer {
            section.boundarySupplementaryItems.append(
                LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(footer)), elementKind: "footer", alignment: .bottom))
        }
        return section
    }

    @Test("interGroupSpacing pushes each following group down")
    func interGroupSpacing() {
        let result = CompositionalLayout(section: Self.rows(interGroupSpacing: 7)).solve(itemCounts: [3], container: phone)
        expectItem(result, 0, 1, rect(0, 57, 390, 50))
        expectItem(result, 0, 2, rect(0, 114, 390, 50))
        #expect(result.contentSize.height == 164)   // 3·50 + 2·7: no spacing after the last group
    }

    @Test("interSectionSpacing, content insets, headers and footers push the next section down")
    func sectionStacking() {
        var configuration = CompositionalLayoutConfiguration()
        configuration.interSectionSpacing = 20
        let section = Self.rows(insets: DirectionalEdgeInsets(top: 5, leading: 10, bottom: 15, trailing: 10), header: 30, footer: 25)
        let result = CompositionalLayout(section: section, configuration: configuration).solve(itemCounts: [2, 1], container: phone)
        // Section 0: header 0–30, inset 5, rows 35–85 and 85–135, inset 15, footer 150–175.
        // Headers follow the content insets horizontally: x 10, width 370.
        expectFrame(result.supplementary(ofKind: "header", at: ItemPath(section: 0, item: 0))?.frame, rect(10, 0, 370, 30), "header")
        expectItem(result, 0, 0, rect(10, 35, 370, 50))
        expectItem(result, 0, 1, rect(10, 85, 370, 50))
        expectFrame(result.supplementary(ofKind: "footer", at: ItemPath(section: 0, item: 0))?.frame, rect(10, 150, 370, 25), "footer")
        #expect(result.sections[0].frame == rect(0, 0, 390, 175))
        // Section 1 starts 20 later, at 195: its row at 195 + 30 + 5 = 230.
        expectItem(result, 1, 0, rect(10, 230, 370, 50))
        #expect(result.sections[1].frame == rect(0, 195, 390, 125))   // 30 + 5 + 50 + 15 + 25
        #expect(result.contentSize.height == 320)
    }

    @Test("supplementaries span the container when they do not follow the content insets")
    func supplementariesIgnoringInsets() {
        var section = Self.rows(insets: .uniform(16), header: 40)
        section.supplementariesFollowContentInsets = false
        let result = CompositionalLayout(section: section).solve(itemCounts: [1], container: phone)
        expectFrame(result.supplementary(ofKind: "header", at: ItemPath(section: 0, item: 0))?.frame, rect(0, 0, 390, 40))
    }

    @Test("an empty section still takes its header, insets and footer")
    func emptySection() {
        let section = Self.rows(insets: .uniform(10), header: 30, footer: 20)
        let result = CompositionalLayout(section: section).solve(itemCounts: [0, 1], container: phone)
        #expect(result.sections[0].frame.height == 70)    // 30 + 10 + 0 + 10 + 20
        expectItem(result, 1, 0, rect(10, 110, 370, 50))  // 70 + 30 + 10
    }

    @Test("a pinned header sticks to the top of the viewport while its section scrolls by", arguments: [
        // (content offset, expected header y)
        (-50.0, 0.0),     // pulled down: stays at its resting place
        (0.0, 0.0),
        (100.0, 100.0),   // sticks to the top
        (500.0, 500.0),
        (490.0, 490.0),
        (500.0, 500.0),   // the section ends at 30 + 10·50 = 530: the header's bottom reaches it…
        (520.0, 500.0),   // …and is pushed up with the section's end (530 − 30)
        (900.0, 500.0),
    ])
    func pinnedHeader(offset: Double, expectedY: Double) {
        let result = CompositionalLayout(section: Self.rows(header: 30, pinHeader: true)).solve(itemCounts: [10, 10], container: phone)
        let header = result.supplementary(ofKind: "header", at: ItemPath(section: 0, item: 0))!
        #expect(header.isPinned)
        #expect(header.frame.y == 0)
        let pinned = result.pinnedFrame(of: header, contentOffsetY: offset)
        #expect(pinned.y == expectedY)
        #expect(pinned.height == 30)
    }

    @Test("an unpinned header does not move with the scroll offset")
    func unpinnedHeader() {
        let result = CompositionalLayout(section: Self.rows(header: 30)).solve(itemCounts: [10], container: phone)
        #expect(result.pinnedFrame(ofKind: "header", section: 0, contentOffsetY: 200) == rect(0, 0, 390, 30))
        #expect(result.pinnedFrame(ofKind: "header", section: 5, contentOffsetY: 200) == nil)
    }

    @Test("a background decoration covers the whole section, inset by its own insets")
    func backgroundDecoration() {
        // Apple's section-background sample: content 10 in, background 5 in.
        var section = Self.rows(insets: .uniform(10), header: 30)
        var background = LayoutDecorationItem.background(elementKind: "section-background")
        background.contentInsets = .uniform(5)
        section.decorationItems = [background]
        let result = CompositionalLayout(section: section).solve(itemCounts: [2, 1], container: phone)
        // Section 0: 30 + 10 + 100 + 10 = 150 tall, full width → (5, 5, 380, 140).
        #expect(result.decorations.count == 2)
        #expect(result.decorations[0] == LayoutDecoration(kind: "section-background", section: 0, frame: rect(5, 5, 380, 140), zIndex: -1))
        #expect(result.decorations[1].frame == rect(5, 155, 380, 90))   // section 1: 150 … 250
    }

    @Test("the layout's own header and footer wrap the sections")
    func layoutHeaderAndFooter() {
        var configuration = CompositionalLayoutConfiguration()
        configuration.boundarySupplementaryItems = [
            LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(60)), elementKind: LayoutElementKind.layoutHeader, alignment: .top),
            LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(40)), elementKind: LayoutElementKind.layoutFooter, alignment: .bottom),
        ]
        configuration.interSectionSpacing = 10
        let result = CompositionalLayout(section: Self.rows(), configuration: configuration).solve(itemCounts: [1, 1], container: phone)
        expectFrame(result.supplementary(ofKind: "layout-header", at: .layoutWide)?.frame, rect(0, 0, 390, 60))
        expectItem(result, 0, 0, rect(0, 60, 390, 50))
        expectItem(result, 1, 0, rect(0, 120, 390, 50))
        expectFrame(result.supplementary(ofKind: "layout-footer", at: .layoutWide)?.frame, rect(0, 170, 390, 40))
        #expect(result.contentSize.height == 210)
    }

    @Test("item-anchored supplementaries follow their item (a badge)")
    func itemSupplementary() {
        let badge = LayoutSupplementaryItem(
            layoutSize: size(.absolute(20), .absolute(20)), elementKind: "badge",
            containerAnchor: LayoutAnchor(edges: [.top, .trailing], fractionalOffset: LayoutPoint(x: 0.3, y: -0.3)))
        let item = LayoutItem(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1)), supplementaryItems: [badge])
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .absolute(100)), subitems: [item])
        let result = CompositionalLayout(section: LayoutSection(group: group)).solve(itemCounts: [3], container: phone)
        // Item 1: (195, 0, 195, 100); the badge's top-trailing corner at the item's (390, 0),
        // moved by (0.3·20, −0.3·20) = (6, −6): origin (390 − 20 + 6, −6).
        expectFrame(result.supplementary(ofKind: "badge", at: ItemPath(section: 0, item: 1))?.frame, rect(376, -6, 20, 20))
        // Item 2 (second row): y = 100 − 6. Only 3 badges: the empty slot has none.
        expectFrame(result.supplementary(ofKind: "badge", at: ItemPath(section: 0, item: 2))?.frame, rect(181, 94, 20, 20))
        #expect(result.supplementaries.count == 3)
        #expect(result.supplementary(ofKind: "badge", at: ItemPath(section: 0, item: 3)) == nil)
    }
}
