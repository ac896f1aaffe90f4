@_spi(Reference) import CompositionalLayout
import SeededRandom
import Testing

/// Sections whose groups are all alike keep their template and compute frames on demand; the
/// stamped representation (`solveStamped`) is the reference they must match exactly.
@Suite("Template sections against stamped frames")
struct TemplateTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let seed: UInt64
        var testDescription: String { "seed \(seed)" }
    }

    static let cases = (1...80).map { Case(seed: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }

    /// A random layout (orthogonal sections, headers — some pinned —, footers, backgrounds, badges,
    /// layout-wide header and footer, self-sizing sections with measured rows), random counts
    /// including 0 and 1, and a container.
    struct Scenario {
        var layout: CompositionalLayout
        var counts: [Int]
        var container: LayoutContainer
        var measured: [ItemPath: LayoutPixelSize]

        func solve() -> LayoutResult {
            layout.solve(itemCounts: counts, container: container, measuredSizes: measured)
        }

        func stamped() -> LayoutResult {
            layout.solveStamped(itemCounts: counts, container: container, measuredSizes: measured)
        }
    }

    static func scenario(_ random: inout RandomLayouts) -> Scenario {
        let sectionCount = random.int(1...5)
        var sections: [LayoutSection] = []
        var measured: [ItemPath: LayoutPixelSize] = [:]
        var counts: [Int] = []
        for s in 0..<sectionCount {
            let count = switch random.int(0...5) {
            case 0: 0
            case 1: 1
            default: random.int(2...400)
            }
            counts.append(count)
            if random.chance(0.15) {
                sections.append(random.estimatedList())
                for i in 0..<count where random.chance(0.2) {
                    measured[ItemPath(section: s, item: i)] = LayoutPixelSize(width: 0, height: random.double(10...120))
                }
            } else {
                sections.append(random.section())
            }
        }
        var configuration = CompositionalLayoutConfiguration()
        configuration.interSectionSpacing = random.chance(0.5) ? 0 : random.double(0...30)
        if random.chance(0.3) {
            configuration.boundarySupplementaryItems = [
                LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(random.double(10...60))), elementKind: "layout-header", alignment: .top),
                LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(random.double(10...60))), elementKind: "layout-footer", alignment: .bottom),
            ]
        }
        let frozen = sections
        let layout = CompositionalLayout(configuration: configuration) { index, _ in frozen[index] }
        let container = LayoutContainer(width: random.double(320...1400), height: random.double(480...1000))
        return Scenario(layout: layout, counts: counts, container: container, measured: measured)
    }

    @Test("itemFrame(at:), items, supplementaries and equality match the stamped result", arguments: cases)
    func pointQueriesMatch(_ c: Case) {
        var random = RandomLayouts(rng: SplitMix64(seed: c.seed))
        let scenario = Self.scenario(&random)
        let result = scenario.solve(), reference = scenario.stamped()

        #expect(result == reference)
        #expect(reference == result)
        #expect(result.contentSize == reference.contentSize)
        #expect(result.sections == reference.sections)
        #expect(result.itemCount == reference.itemCount)
        for (s, count) in scenario.counts.enumerated() {
            for i in -1...count {
                let path = ItemPath(section: s, item: i)
                #expect(result.itemFrame(at: path) == reference.itemFrame(at: path), "\(path)")
                #expect(result.supplementary(ofKind: "badge", at: path) == reference.supplementary(ofKind: "badge", at: path), "\(path)")
            }
            for kind in ["header", "footer"] {
                #expect(result.supplementary(ofKind: kind, at: ItemPath(section: s, item: 0)) == reference.supplementary(ofKind: kind, at: ItemPath(section: s, item: 0)))
                for y in [0.0, result.sections[s].frame.midY, result.contentSize.height] {
                    #expect(result.pinnedFrame(ofKind: kind, section: s, contentOffsetY: y) == reference.pinnedFrame(ofKind: kind, section: s, contentOffsetY: y))
                }
            }
            #expect(result.orthogonalContentWidth(section: s) == reference.orthogonalContentWidth(section: s))
            // Only sections holding measured items store frames.
            let isMeasured = scenario.measured.keys.contains { $0.section == s }
            #expect(result.keepsTemplate(section: s) == !isMeasured)
        }
        #expect(Array(result.items) == Array(reference.items))
        #expect(Array(result.items) == result.items.indices.map { result.items[$0] })   // iterator and subscript agree
        #expect(result.supplementaries == reference.supplementaries)
        #expect(result.decorations == reference.decorations)
        // Measured vertical sections keep their template and measured groups; only orthogonal ones store.
        let measuredItems = scenario.counts.enumerated()
            .filter { s, _ in !result.keepsTemplate(section: s) && !result.keepsMeasuredGroups(section: s) }
            .reduce(0) { $0 + $1.1 }
        #expect(result.storedItemFrameCount == measuredItems)
        #expect(reference.storedItemFrameCount == reference.itemCount)
    }

    @Test("frames(in:) and itemRanges(in:) match the stamped result for random rects", arguments: cases)
    func rectQueriesMatch(_ c: Case) {
        var random = RandomLayouts(rng: SplitMix64(seed: c.seed))
        let scenario = Self.scenario(&random)
        let result = scenario.solve(), reference = scenario.stamped()
        for _ in 0..<30 {
            let query = LayoutRect(
                x: random.double(-100...result.contentSize.width), y: random.double(-100...(result.contentSize.height + 100)),
                width: random.double(0...1_500), height: random.double(0...1_200))
            var offsets: [Int: Double] = [:]
            for section in result.sections where section.isOrthogonal && random.chance(0.7) {
                offsets[section.index] = random.double(0...max(0, section.scrollableContentWidth))
            }
            let found = result.frames(in: query, orthogonalOffsets: offsets)
            #expect(found == reference.frames(in: query, orthogonalOffsets: offsets))
            let ranges = result.itemRanges(in: query, orthogonalOffsets: offsets)
            #expect(ranges == reference.itemRanges(in: query, orthogonalOffsets: offsets))
            #expect(result.sectionIndices(intersectingFrom: query.minY, to: query.maxY)
                == reference.sectionIndices(intersectingFrom: query.minY, to: query.maxY))

            // The ranges hold every item frames(in:) finds, and start and end on such items.
            let hits = found.filter { $0.category == .item }.map(\.indexPath)
            for hit in hits {
                #expect(ranges.contains { $0.section == hit.section && $0.items.contains(hit.item) }, "\(hit) outside \(ranges)")
            }
            for range in ranges {
                #expect(!range.items.isEmpty)
                #expect(hits.contains(ItemPath(section: range.section, item: range.items.lowerBound)))
                #expect(hits.contains(ItemPath(section: range.section, item: range.items.upperBound - 1)))
            }
        }
    }

    @Test("a uniform section stores no frame, even at a million items")
    func millionItems() {
        let result = SeedLayouts.mountains.solve(itemCounts: [1_000_000], container: phone)
        #expect(result.storedItemFrameCount == 0)
        #expect(result.keepsTemplate(section: 0))
        // Two 180-px columns, rows 32 + 10 apart, insets 10: item 999,999 is row 499,999, column 1.
        #expect(result.itemFrame(at: ItemPath(section: 0, item: 999_999)) == rect(200, 10 + 499_999 * 42, 180, 32))
        #expect(result.itemFrame(at: ItemPath(section: 0, item: 1_000_000)) == nil)
        #expect(result.contentSize.height == 10 + 500_000 * 42 - 10 + 10)
        #expect(result.items.count == 1_000_000)
        #expect(result.items[999_998].frame == rect(10, 10 + 499_999 * 42, 180, 32))
        // Rows 10 000 … 10 002 meet this rect (row r spans 10 + 42r … 42 + 42r).
        let y = 10 + 10_000 * 42.0
        #expect(result.itemRanges(in: rect(0, y, 390, 100)) == [SectionItemRange(section: 0, items: 20_000..<20_006)])
        #expect(result.frames(in: rect(0, y, 390, 100)).map(\.indexPath.item) == Array(20_000..<20_006))
        // A rect over the second column only: the range still spans the first column between.
        #expect(result.itemRanges(in: rect(250, y, 50, 100)) == [SectionItemRange(section: 0, items: 20_001..<20_006)])
    }

    @Test("a partial last group holds only the items left; empty sections hold none")
    func partialLastGroup() {
        let result = SeedLayouts.leftOneRightThree.solve(itemCounts: [6, 0, 1], container: phone)
        let reference = SeedLayouts.leftOneRightThree.solveStamped(itemCounts: [6, 0, 1], container: phone)
        #expect(result == reference)
        #expect(result.items.map(\.indexPath) == reference.items.map(\.indexPath))
        #expect(result.itemFrame(at: ItemPath(section: 0, item: 6)) == nil)
        #expect(result.itemFrame(at: ItemPath(section: 1, item: 0)) == nil)
        #expect(result.frames(in: LayoutRect(x: 0, y: 0, width: 390, height: result.contentSize.height)).count == 7)
    }

    @Test("an orthogonal section steps along x")
    func orthogonalSteps() {
        let result = SeedLayouts.carouselThenList.solve(itemCounts: [50, 20], container: phone)
        #expect(result == SeedLayouts.carouselThenList.solveStamped(itemCounts: [50, 20], container: phone))
        #expect(result.keepsTemplate(section: 0) && result.sections[0].isOrthogonal)
        guard let first = result.itemFrame(at: ItemPath(section: 0, item: 0)),
              let later = result.itemFrame(at: ItemPath(section: 0, item: 40)) else {
            Issue.record("missing frames")
            return
        }
        #expect(later.y == first.y && later.x > first.x)
    }

    @Test("results are equal when their frames are, whatever their templates")
    func equalFramesFromDifferentTemplates() {
        // One 44-px row per group, or two stacked rows per 88-px group: the same frames for an even count.
        let single = CompositionalLayout(section: LayoutSection(group: LayoutGroup.horizontal(
            layoutSize: size(.fractionalWidth(1), .absolute(44)), subitems: [fractionalItem()])))
        let pair = CompositionalLayout(section: LayoutSection(group: LayoutGroup.vertical(
            layoutSize: size(.fractionalWidth(1), .absolute(88)),
            subitem: LayoutItem(layoutSize: size(.fractionalWidth(1), .absolute(44))), count: 2)))
        #expect(single.solve(itemCounts: [10], container: phone) == pair.solve(itemCounts: [10], container: phone))
        #expect(single.solve(itemCounts: [10], container: phone) == pair.solveStamped(itemCounts: [10], container: phone))
        // An odd count: the same frames, but the content of the pair's last group is 44 px taller.
        #expect(single.solve(itemCounts: [9], container: phone) != pair.solve(itemCounts: [9], container: phone))
        // A different count, or one frame moved, is a different result.
        #expect(single.solve(itemCounts: [10], container: phone) != single.solveStamped(itemCounts: [11], container: phone))
        #expect(SeedLayouts.mountains.solve(itemCounts: [10], container: phone) != SeedLayouts.mountains.solveStamped(itemCounts: [10], container: tablet))
    }
}
