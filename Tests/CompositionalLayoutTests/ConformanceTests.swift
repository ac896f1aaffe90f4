import CompositionalLayout
import Testing

/// The seeds' layouts at 390 × 844 (a phone) and 1024 × 768 (a tablet or small desktop window),
/// against frames worked out by hand from UIKit's rules. The arithmetic is in the comments.
@Suite("Conformance with UIKit's frames")
struct ConformanceTests {
    // MARK: Basic list

    @Test("basic list: full-width rows 44 px tall", arguments: [phone, tablet])
    func basicList(container: LayoutContainer) {
        let result = SeedLayouts.basicList.solve(itemCounts: [20], container: container)
        // No insets: row i is at y = 44·i, full container width.
        let w = container.width
        expectItem(result, 0, 0, rect(0, 0, w, 44))
        expectItem(result, 0, 1, rect(0, 44, w, 44))
        expectItem(result, 0, 19, rect(0, 836, w, 44))     // 44·19 = 836
        #expect(result.contentSize == LayoutPixelSize(width: w, height: 880))  // 44·20
    }

    // MARK: Mountains

    @Test("Mountains grid on a phone: 2 columns")
    func mountainsPhone() {
        let result = SeedLayouts.mountains.solve(itemCounts: [7], container: phone)
        // 390 ≤ 800 → 2 columns. Content width 390 − 10 − 10 = 370.
        // subitem:count: 2 with 10 between: width (370 − 10) / 2 = 180; x = 10 and 10 + 180 + 10 = 200.
        // Rows 32 tall, 10 apart, from the 10-px top inset: y = 10 + 42·row.
        expectItem(result, 0, 0, rect(10, 10, 180, 32))
        expectItem(result, 0, 1, rect(200, 10, 180, 32))
        expectItem(result, 0, 2, rect(10, 52, 180, 32))
        expectItem(result, 0, 5, rect(200, 94, 180, 32))
        // Item 6 is alone in the 4th row, in its first slot.
        expectItem(result, 0, 6, rect(10, 136, 180, 32))
        // 4 rows: 10 + 4·32 + 3·10 + 10 = 178.
        #expect(result.contentSize == LayoutPixelSize(width: 390, height: 178))
    }

    @Test("Mountains grid on a wide container: 3 columns")
    func mountainsTablet() {
        let result = SeedLayouts.mountains.solve(itemCounts: [7], container: tablet)
        // 1024 > 800 → 3 columns. Content width 1024 − 20 = 1004.
        // Width (1004 − 2·10) / 3 = 328; x = 10, 10 + 338 = 348, 348 + 338 = 686.
        expectItem(result, 0, 0, rect(10, 10, 328, 32))
        expectItem(result, 0, 1, rect(348, 10, 328, 32))
        expectItem(result, 0, 2, rect(686, 10, 328, 32))
        expectItem(result, 0, 3, rect(10, 52, 328, 32))
        expectItem(result, 0, 6, rect(10, 94, 328, 32))
        // 3 rows: 10 + 3·32 + 2·10 + 10 = 136.
        #expect(result.contentSize == LayoutPixelSize(width: 1024, height: 136))
    }

    @Test("Mountains grid switches to 3 columns only above 800 px", arguments: [(800.0, 2), (801.0, 3)])
    func mountainsThreshold(width: Double, columns: Int) {
        let result = SeedLayouts.mountains.solve(itemCounts: [4], container: LayoutContainer(width: width, height: 600))
        // The item in column `columns` starts the second row.
        #expect(result.itemFrame(at: ItemPath(section: 0, item: columns))?.y == 52)
        #expect(result.itemFrame(at: ItemPath(section: 0, item: columns - 1))?.y == 10)
    }

    // MARK: leftOneRightThree

    @Test("leftOneRightThree on a phone")
    func leftOneRightThreePhone() {
        let result = SeedLayouts.leftOneRightThree.solve(itemCounts: [8], container: phone)
        // Container group: 390 × 0.6·844 = 506.4. Halves: 195 wide.
        // Leading: one item 195 × 506.4, inset by 1 → (1, 1, 193, 504.4).
        expectItem(result, 0, 0, rect(1, 1, 193, 504.4))
        // Trailing: 3 slots of 506.4 / 3 = 168.8, at x 195; inset by 1.
        expectItem(result, 0, 1, rect(196, 1, 193, 166.8))
        expectItem(result, 0, 2, rect(196, 169.8, 193, 166.8))   // 168.8 + 1
        expectItem(result, 0, 3, rect(196, 338.6, 193, 166.8))   // 337.6 + 1
        // The group repeats 506.4 lower.
        expectItem(result, 0, 4, rect(1, 507.4, 193, 504.4))
        expectItem(result, 0, 7, rect(196, 845.0, 193, 166.8))   // 506.4 + 337.6 + 1
        #expect(abs(result.contentSize.height - 1012.8) < tolerance)  // 2 · 506.4
    }

    @Test("leftOneRightThree on a wide container")
    func leftOneRightThreeTablet() {
        let result = SeedLayouts.leftOneRightThree.solve(itemCounts: [4], container: tablet)
        // Container group: 1024 × 0.6·768 = 460.8; halves 512 wide; trailing slots 153.6.
        expectItem(result, 0, 0, rect(1, 1, 510, 458.8))
        expectItem(result, 0, 1, rect(513, 1, 510, 151.6))
        expectItem(result, 0, 2, rect(513, 154.6, 510, 151.6))   // 153.6 + 1
        expectItem(result, 0, 3, rect(513, 308.2, 510, 151.6))   // 307.2 + 1
    }

    // MARK: leftThreeRightThree

    @Test("leftThreeRightThree on a phone")
    func leftThreeRightThreePhone() {
        let result = SeedLayouts.leftThreeRightThree.solve(itemCounts: [7], container: phone)
        // Container group 390 × 844 (fractionalHeight 1.0 of the container); halves 195 wide.
        // Leading heights: 0.35·844 = 295.4, 0.2·844 = 168.8, 0.45·844 = 379.8; margins 2.
        expectItem(result, 0, 0, rect(2, 2, 191, 291.4))
        expectItem(result, 0, 1, rect(2, 297.4, 191, 164.8))     // 295.4 + 2
        expectItem(result, 0, 2, rect(2, 466.2, 191, 375.8))     // 295.4 + 168.8 + 2
        // Trailing heights: 0.5·844 = 422, 168.8, 0.3·844 = 253.2; x = 195 + 2.
        expectItem(result, 0, 3, rect(197, 2, 191, 418))
        expectItem(result, 0, 4, rect(197, 424, 191, 164.8))     // 422 + 2
        expectItem(result, 0, 5, rect(197, 592.8, 191, 249.2))   // 422 + 168.8 + 2
        // Next repetition 844 lower.
        expectItem(result, 0, 6, rect(2, 846, 191, 291.4))
        #expect(result.contentSize.height == 1688)
    }

    @Test("leftThreeRightThree on a wide container")
    func leftThreeRightThreeTablet() {
        let result = SeedLayouts.leftThreeRightThree.solve(itemCounts: [6], container: tablet)
        // Halves 512 × 768. Leading: 268.8, 153.6, 345.6. Trailing: 384, 153.6, 230.4.
        expectItem(result, 0, 0, rect(2, 2, 508, 264.8))
        expectItem(result, 0, 1, rect(2, 270.8, 508, 149.6))     // 268.8 + 2
        expectItem(result, 0, 2, rect(2, 424.4, 508, 341.6))     // 268.8 + 153.6 + 2
        expectItem(result, 0, 3, rect(514, 2, 508, 380))
        expectItem(result, 0, 4, rect(514, 386, 508, 149.6))     // 384 + 2
        expectItem(result, 0, 5, rect(514, 539.6, 508, 226.4))   // 384 + 153.6 + 2
    }

    // MARK: Square grid

    @Test("three-column square grid on a phone")
    func squareGridPhone() {
        let result = SeedLayouts.squareGrid.solve(itemCounts: [10], container: phone)
        // Side (390 − 32 − 16) / 3 = 114. x = 16, 16 + 122 = 138, 260. y = 16 + 122·row.
        expectItem(result, 0, 0, rect(16, 16, 114, 114))
        expectItem(result, 0, 1, rect(138, 16, 114, 114))
        expectItem(result, 0, 2, rect(260, 16, 114, 114))
        expectItem(result, 0, 4, rect(138, 138, 114, 114))
        expectItem(result, 0, 9, rect(16, 382, 114, 114))        // row 3: 16 + 366
        // 4 rows: 16 + 4·114 + 3·8 + 16 = 512.
        #expect(result.contentSize.height == 512)
    }

    @Test("three-column square grid on a wide container")
    func squareGridTablet() {
        let result = SeedLayouts.squareGrid.solve(itemCounts: [4], container: tablet)
        // Side (1024 − 32 − 16) / 3 = 325.333; x = 16, 349.333, 682.667; next row at 16 + 333.333.
        let side = 976.0 / 3
        expectItem(result, 0, 0, rect(16, 16, side, side))
        expectItem(result, 0, 1, rect(16 + side + 8, 16, side, side))
        expectItem(result, 0, 2, rect(16 + 2 * (side + 8), 16, side, side))
        expectItem(result, 0, 3, rect(16, 16 + side + 8, side, side))
        // Squares: the width equals the height.
        #expect(result.items.allSatisfy { abs($0.frame.width - $0.frame.height) < 1e-9 })
    }

    // MARK: Carousel then list

    @Test("orthogonal carousel followed by a list, on a phone")
    func carouselPhone() {
        let result = SeedLayouts.carouselThenList.solve(itemCounts: [5, 3], container: phone)
        // Carousel content width 390 − 32 = 358; groups 0.8·358 = 286.4 wide, 200 tall,
        // at x = 16 + i·(286.4 + 10).
        expectItem(result, 0, 0, rect(16, 0, 286.4, 200))
        expectItem(result, 0, 1, rect(312.4, 0, 286.4, 200))
        expectItem(result, 0, 4, rect(1201.6, 0, 286.4, 200))    // 16 + 4·296.4
        // Scrollable width: 16 + 5·286.4 + 4·10 + 16 = 1504.
        #expect(abs((result.orthogonalContentWidth(section: 0) ?? 0) - 1504) < tolerance)
        // The section is as tall as its group: the list starts at 200.
        expectItem(result, 1, 0, rect(0, 200, 390, 44))
        expectItem(result, 1, 2, rect(0, 288, 390, 44))
        #expect(result.contentSize.height == 332)                // 200 + 3·44
        #expect(result.orthogonalContentWidth(section: 1) == nil)
    }

    @Test("orthogonal carousel followed by a list, on a wide container")
    func carouselTablet() {
        let result = SeedLayouts.carouselThenList.solve(itemCounts: [5, 1], container: tablet)
        // Content width 1024 − 32 = 992; groups 793.6; x = 16 + i·803.6.
        expectItem(result, 0, 0, rect(16, 0, 793.6, 200))
        expectItem(result, 0, 1, rect(819.6, 0, 793.6, 200))
        // 16 + 5·793.6 + 4·10 + 16 = 4040.
        #expect(abs((result.orthogonalContentWidth(section: 0) ?? 0) - 4040) < tolerance)
        expectItem(result, 1, 0, rect(0, 200, 1024, 44))
    }

    // MARK: Inset-grouped list

    @Test("inset-grouped list with headers", arguments: [phone, tablet])
    func insetGrouped(container: LayoutContainer) {
        let result = SeedLayouts.insetGroupedWithHeaders.solve(itemCounts: [3, 2], container: container)
        // Rows are inset 20 on both sides: width W − 40.
        let w = container.width - 40
        // Section 0: header 38 at the top (no top inset when there is a header), rows from 38.
        expectFrame(result.supplementary(ofKind: "header", at: ItemPath(section: 0, item: 0))?.frame, rect(20, 0, w, 38), "header 0")
        expectItem(result, 0, 0, rect(20, 38, w, 44))
        expectItem(result, 0, 2, rect(20, 126, w, 44))           // 38 + 2·44
        // Section 0 ends at 38 + 3·44 + 17.5 (no footer) = 187.5; section 1's header is there.
        expectFrame(result.supplementary(ofKind: "header", at: ItemPath(section: 1, item: 0))?.frame, rect(20, 187.5, w, 38), "header 1")
        expectItem(result, 1, 0, rect(20, 225.5, w, 44))         // 187.5 + 38
        expectItem(result, 1, 1, rect(20, 269.5, w, 44))
        // 269.5 + 44 + 17.5 = 331.
        #expect(result.contentSize.height == 331)
    }
}
