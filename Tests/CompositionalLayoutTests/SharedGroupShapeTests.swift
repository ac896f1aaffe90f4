@_spi(Reference) import CompositionalLayout
import SeededRandom
import Testing

/// Groups whose items measure alike share one solved shape (a text row wraps to a few line
/// heights, so most of a grid's measured rows repeat): the result must be the one a stamped
/// solve gives, for grids of 1 to 5 columns (5: more leaves than a shared key holds).
@Suite("Measured groups that measure alike")
struct SharedGroupShapeTests {
    static let columns = [1, 2, 3, 4, 5]

    func grid(columns: Int) -> CompositionalLayout {
        let item = LayoutItem(layoutSize: size(.fractionalWidth(1 / Double(columns)), .estimated(44)))
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .estimated(44)), subitem: item, count: columns)
        group.interItemSpacing = .fixed(10)
        var section = LayoutSection(group: group)
        section.interGroupSpacing = 10
        section.contentInsets = .uniform(10)
        return CompositionalLayout(section: section)
    }

    @Test("equal to a stamped solve, and the same given by section", arguments: columns)
    func sharedShapes(columns: Int) {
        var random = SeededRandom(seed: UInt64(columns) &* 0x9E37_79B9)
        let layout = grid(columns: columns)
        let container = LayoutContainer(width: 1024, height: 768)
        let count = 601   // a partial last group
        var measured: [ItemPath: LayoutPixelSize] = [:]
        for item in 0..<count where Bool.random(using: &random) {
            // Three line heights, as wrapped text gives; some rows hold several.
            let lines = Double(Int.random(in: 1...3, using: &random))
            measured[ItemPath(section: 0, item: item)] = LayoutPixelSize(width: 200, height: 22 * lines + 2)
        }
        let solved = layout.solve(itemCounts: [count], container: container, measuredSizes: measured)
        let stamped = layout.solveStamped(itemCounts: [count], container: container, measuredSizes: measured)
        #expect(solved == stamped)
        var bySection: [Int: [Int: LayoutPixelSize]] = [:]
        for (path, size) in measured { bySection[path.section, default: [:]][path.item] = size }
        #expect(layout.solve(itemCounts: [count], container: container, measuredItemsBySection: bySection) == solved)
        // Rows of different measurements differ (a shared shape is not handed to the wrong row).
        let heights = Set((0..<count).map { solved.itemFrame(at: ItemPath(section: 0, item: $0))?.height ?? -1 })
        #expect(heights.count >= 3)
    }
}
