import CompositionalLayout
import Testing

@Suite("Queries on a solved layout")
struct QueryTests {
    @Test("frames(in:) returns exactly the rows a viewport shows in a long list")
    func visibleRows() {
        let result = SeedLayouts.basicList.solve(itemCounts: [100_000], container: phone)
        // 4400 = 44·100; 4400 + 844 = 5244 = 44·119 + 8: rows 100 … 119.
        let found = result.frames(in: rect(0, 4_400, 390, 844))
        #expect(found.map(\.indexPath.item) == Array(100...119))
        #expect(found.allSatisfy { $0.category == .item })
    }

    @Test("a rect that only touches an element does not return it")
    func touchingIsNotIntersecting() {
        let result = SeedLayouts.basicList.solve(itemCounts: [10], container: phone)
        #expect(result.frames(in: rect(0, 88, 390, 44)).map(\.indexPath.item) == [2])
        #expect(result.frames(in: rect(0, 440, 390, 100)).isEmpty)    // below the last row
        #expect(result.frames(in: rect(390, 0, 100, 440)).isEmpty)    // beside the rows
    }

    @Test("frames(in:) includes headers, backgrounds and the layout's own supplementaries")
    func supplementariesAndDecorations() {
        var configuration = CompositionalLayoutConfiguration()
        configuration.boundarySupplementaryItems = [LayoutBoundarySupplementaryItem(
            layoutSize: size(.fractionalWidth(1), .absolute(50)), elementKind: "layout-header", alignment: .top)]
        var section = SectionTests.rows(header: 30)
        section.decorationItems = [.background(elementKind: "background")]
        let result = CompositionalLayout(section: section, configuration: configuration).solve(itemCounts: [3, 3], container: phone)
        // Layout header 0–50; section 0: 50–230 (header 50–80, rows 80–230); section 1: 230–410.
        let kinds = Set(result.frames(in: rect(0, 0, 390, 100)).map(\.category))
        #expect(kinds == [.item, .supplementary(kind: "layout-header"), .supplementary(kind: "header"), .decoration(kind: "background")])
        let second = result.frames(in: rect(0, 240, 390, 10))
        #expect(Set(second.map(\.indexPath.section)) == [1])
        #expect(second.contains { $0.category == .supplementary(kind: "header") })   // 230–260
        #expect(result.sectionIndices(intersectingFrom: 100, to: 300) == 0..<2)
        #expect(result.sectionIndices(intersectingFrom: 300, to: 400) == 1..<2)
        #expect(result.sectionIndices(intersectingFrom: 500, to: 600).isEmpty)
    }

    @Test("items lists every item in section/item order, skipping empty sections")
    func itemsCollection() {
        let result = SeedLayouts.mountains.solve(itemCounts: [2, 0, 3], container: phone)
        #expect(result.items.count == 5)
        #expect(result.items.map(\.indexPath) == [
            ItemPath(section: 0, item: 0), ItemPath(section: 0, item: 1),
            ItemPath(section: 2, item: 0), ItemPath(section: 2, item: 1), ItemPath(section: 2, item: 2),
        ])
        #expect(result.itemFrame(at: ItemPath(section: 1, item: 0)) == nil)
        #expect(result.itemFrame(at: ItemPath(section: 3, item: 0)) == nil)
        #expect(result.itemFrame(at: ItemPath(section: 0, item: -1)) == nil)
    }

    @Test("results are equal exactly when their frames are")
    func equality() {
        let a = SeedLayouts.mountains.solve(itemCounts: [50], container: phone)
        #expect(a == SeedLayouts.mountains.solve(itemCounts: [50], container: phone))
        #expect(a != SeedLayouts.mountains.solve(itemCounts: [51], container: phone))
        #expect(a != SeedLayouts.mountains.solve(itemCounts: [50], container: tablet))
    }

    @Test("a result can cross to another task")
    func sendable() async {
        let result = SeedLayouts.basicList.solve(itemCounts: [3], container: phone)
        let height = await Task.detached { result.contentSize.height }.value
        #expect(height == 132)
    }
}

@Suite("Geometry")
struct GeometryTests {
    @Test("intersects needs shared area, not a shared edge", arguments: [
        (rect(0, 0, 10, 10), rect(5, 5, 10, 10), true),
        (rect(0, 0, 10, 10), rect(10, 0, 10, 10), false),
        (rect(0, 0, 10, 10), rect(0, 10, 10, 10), false),
        (rect(0, 0, 10, 10), rect(2, 2, 1, 1), true),
        (rect(0, 0, 10, 10), rect(20, 20, 1, 1), false),
    ])
    func intersects(a: LayoutRect, b: LayoutRect, expected: Bool) {
        #expect(a.intersects(b) == expected)
        #expect(b.intersects(a) == expected)
    }

    @Test("edges, insets and unions")
    func helpers() {
        let r = rect(10, 20, 30, 40)
        #expect(r.minX == 10 && r.maxX == 40 && r.midX == 25 && r.minY == 20 && r.maxY == 60 && r.midY == 40)
        #expect(r.inset(by: .uniform(5)) == rect(15, 25, 20, 30))
        #expect(r.inset(by: .uniform(50)).width == 0)      // clamped, never negative
        #expect(r.union(rect(0, 0, 1, 1)) == rect(0, 0, 40, 60))
        #expect(r.contains(LayoutPoint(x: 10, y: 20)) && !r.contains(LayoutPoint(x: 40, y: 20)))
        #expect(r.offsetBy(dx: 1, dy: -1) == rect(11, 19, 30, 40))
    }

    @Test("dimensions resolve against their container", arguments: [
        (LayoutDimension.fractionalWidth(0.5), 195.0),
        (.fractionalHeight(0.5), 422.0),
        (.absolute(44), 44.0),
        (.estimated(60), 60.0),
    ])
    func dimensions(dimension: LayoutDimension, expected: Double) {
        #expect(dimension.resolved(in: LayoutPixelSize(width: 390, height: 844)) == expected)
    }
}
