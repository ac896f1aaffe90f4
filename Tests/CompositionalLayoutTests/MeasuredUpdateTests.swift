@_spi(Reference) import CompositionalLayout
import SeededRandom
import Testing

/// Measured sizes applied to a result in place (`applyMeasuredSizes`) against a fresh solve and
/// a stamped solve with the union of every measurement.
@Suite("Measured sizes applied in place")
struct MeasuredUpdateTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let seed: UInt64
        var testDescription: String { "seed \(seed)" }
    }

    static let cases = (1...60).map { Case(seed: UInt64($0) &* 0xD1B5_4A32_D192_ED03) }

    /// A random layout mixing self-sizing sections (lists, grids whose rows grow to their tallest
    /// item, lists with estimated headers and footers, backgrounds and badges, an orthogonal
    /// row of estimated widths) with the property tests' fixed ones.
    struct Scenario {
        var layout: CompositionalLayout
        var counts: [Int]
        var container: LayoutContainer

        func solve(_ items: [ItemPath: LayoutPixelSize], _ supplementaries: [SupplementaryPath: LayoutPixelSize]) -> LayoutResult {
            layout.solve(itemCounts: counts, container: container, measuredSizes: items, measuredSupplementarySizes: supplementaries)
        }

        func stamped(_ items: [ItemPath: LayoutPixelSize], _ supplementaries: [SupplementaryPath: LayoutPixelSize]) -> LayoutResult {
            layout.solveStamped(itemCounts: counts, container: container, measuredSizes: items, measuredSupplementarySizes: supplementaries)
        }
    }

    static func selfSizingSection(_ random: inout RandomLayouts) -> LayoutSection {
        switch random.int(0...3) {
        case 0:
            var section = random.estimatedList()
            section.interGroupSpacing = random.double(0...8)
            return section
        case 1:
            let columns = random.int(2...4)
            let item = LayoutItem(layoutSize: size(.fractionalWidth(1 / Double(columns)), .estimated(40)))
            var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .estimated(40)), subitem: item, count: columns)
            group.interItemSpacing = .fixed(random.double(0...10))
            var section = LayoutSection(group: group)
            section.interGroupSpacing = random.double(0...10)
            section.contentInsets = .uniform(random.double(0...16))
            return section
        case 2:
            let badge = LayoutSupplementaryItem(
                layoutSize: size(.absolute(12), .absolute(12)), elementKind: "badge", containerAnchor: LayoutAnchor(edges: [.top, .trailing]))
            let row = size(.fractionalWidth(1), .estimated(44))
            let item = LayoutItem(layoutSize: row, supplementaryItems: random.chance(0.5) ? [badge] : [])
            var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: row, subitems: [item]))
            section.interGroupSpacing = random.double(0...4)
            section.contentInsets = DirectionalEdgeInsets(top: random.double(0...20), leading: 16, bottom: random.double(0...20), trailing: 16)
            var header = LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .estimated(30)), elementKind: "header", alignment: .top)
            header.pinToVisibleBounds = random.chance(0.5)
            section.boundarySupplementaryItems = [header,
                LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .estimated(20)), elementKind: "footer", alignment: .bottom)]
            section.decorationItems = [.background(elementKind: "background")]
            return section
        default:
            let item = LayoutItem(layoutSize: size(.estimated(100), .fractionalHeight(1)))
            var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: size(.estimated(100), .absolute(60)), subitems: [item]))
            section.interGroupSpacing = 8
            section.orthogonalScrollingBehavior = .continuous
            return section
        }
    }

    static func scenario(_ random: inout RandomLayouts) -> Scenario {
        let sectionCount = random.int(1...4)
        var sections: [LayoutSection] = []
        var counts: [Int] = []
        for _ in 0..<sectionCount {
            counts.append(random.chance(0.15) ? random.int(0...1) : random.int(2...300))
            sections.append(random.chance(0.7) ? selfSizingSection(&random) : random.section())
        }
        var configuration = CompositionalLayoutConfiguration()
        configuration.interSectionSpacing = random.chance(0.5) ? 0 : random.double(0...30)
        if random.chance(0.3) {
            configuration.boundarySupplementaryItems = [
                LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .estimated(40)), elementKind: "layout-header", alignment: .top),
                LayoutBoundarySupplementaryItem(layoutSize: size(.fractionalWidth(1), .absolute(random.double(10...60))), elementKind: "layout-footer", alignment: .bottom),
            ]
        }
        let frozen = sections
        let layout = CompositionalLayout(configuration: configuration) { index, _ in frozen[index] }
        let container = LayoutContainer(width: random.double(320...1400), height: random.double(480...1000))
        return Scenario(layout: layout, counts: counts, container: container)
    }

    /// A screen's worth of measurements: a run of items in one section (some past its end), some
    /// equal to their estimate, some repeated; sometimes a header, footer or layout header.
    static func batch(_ random: inout RandomLayouts, _ scenario: Scenario)
        -> ([ItemPath: LayoutPixelSize], [SupplementaryPath: LayoutPixelSize]) {
        var items: [ItemPath: LayoutPixelSize] = [:]
        var supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
        let s = random.int(0...(scenario.counts.count - 1))
        let count = scenario.counts[s]
        let start = random.int(0...max(0, count - 1))
        for item in start..<(start + random.int(1...40)) where random.chance(0.9) {
            let height = switch random.int(0...4) {
            case 0: 44.0
            case 1: 40.0
            case 2: Double(random.int(10...120))
            default: random.double(10...120)
            }
            items[ItemPath(section: s, item: item)] = LayoutPixelSize(width: random.double(20...300), height: height)
        }
        if random.chance(0.3) {
            let kind = ["header", "footer", "layout-header"][random.int(0...2)]
            supplementaries[SupplementaryPath(kind: kind, section: kind == "layout-header" ? -1 : s)] =
                LayoutPixelSize(width: 100, height: random.double(10...80))
        }
        return (items, supplementaries)
    }

    static func expectSameFrames(_ a: LayoutResult, _ b: LayoutResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a == b, "\(what)", sourceLocation: sourceLocation)
        #expect(Array(a.items) == Array(b.items), "\(what): items", sourceLocation: sourceLocation)
        #expect(a.supplementaries == b.supplementaries, "\(what): supplementaries", sourceLocation: sourceLocation)
        #expect(a.decorations == b.decorations, "\(what): decorations", sourceLocation: sourceLocation)
        #expect(a.sections == b.sections, "\(what): sections", sourceLocation: sourceLocation)
        #expect(a.contentSize == b.contentSize, "\(what): content size", sourceLocation: sourceLocation)
    }

    @Test("batches applied in place equal a fresh solve and a stamped solve with their union", arguments: cases)
    func incrementalEqualsFresh(_ c: Case) {
        var random = RandomLayouts(rng: SplitMix64(seed: c.seed))
        let scenario = Self.scenario(&random)
        var items: [ItemPath: LayoutPixelSize] = [:]
        var supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
        var result = scenario.solve([:], [:])
        for round in 0..<12 {
            let (newItems, newSupplementaries) = Self.batch(&random, scenario)
            items.merge(newItems) { $1 }
            supplementaries.merge(newSupplementaries) { $1 }
            let previous = result
            let changed = result.applyMeasuredSizes(newItems, supplementaries: newSupplementaries)
            #expect(result.measuredGroupsInvariantViolations() == [], "round \(round)")
            let fresh = scenario.solve(items, supplementaries)
            Self.expectSameFrames(result, fresh, "round \(round) against a fresh solve")
            Self.expectSameFrames(result, scenario.stamped(items, supplementaries), "round \(round) against a stamped solve")
            #expect(changed == (result != previous), "round \(round): reported \(changed)")
            #expect(result.storedItemFrameCount == fresh.storedItemFrameCount)
            for s in scenario.counts.indices {
                #expect(result.keepsMeasuredGroups(section: s) == fresh.keepsMeasuredGroups(section: s))
            }
            // Applying the same batch again changes nothing.
            let again = result.applyMeasuredSizes(newItems, supplementaries: newSupplementaries)
            #expect(!again)
        }
    }

    @Test("frames(in:) and itemRanges(in:) agree between measured groups, a fresh solve and stamped frames", arguments: cases)
    func windowQueriesAgree(_ c: Case) {
        var random = RandomLayouts(rng: SplitMix64(seed: c.seed))
        let scenario = Self.scenario(&random)
        var items: [ItemPath: LayoutPixelSize] = [:]
        var supplementaries: [SupplementaryPath: LayoutPixelSize] = [:]
        var result = scenario.solve([:], [:])
        for _ in 0..<4 {
            let (newItems, newSupplementaries) = Self.batch(&random, scenario)
            items.merge(newItems) { $1 }
            supplementaries.merge(newSupplementaries) { $1 }
            result.applyMeasuredSizes(newItems, supplementaries: newSupplementaries)
        }
        let reference = scenario.stamped(items, supplementaries)
        for (s, count) in scenario.counts.enumerated() where count > 0 {
            for _ in 0..<20 {
                let path = ItemPath(section: s, item: random.int(0...(count - 1)))
                #expect(result.itemFrame(at: path) == reference.itemFrame(at: path), "\(path)")
                #expect(result.supplementary(ofKind: "badge", at: path) == reference.supplementary(ofKind: "badge", at: path), "\(path)")
                #expect(result.selfSizingAxes(ofItemAt: path) == reference.selfSizingAxes(ofItemAt: path), "\(path)")
            }
            for y in [0.0, result.sections[s].frame.midY, result.contentSize.height] {
                #expect(result.pinnedFrame(ofKind: "header", section: s, contentOffsetY: y) == reference.pinnedFrame(ofKind: "header", section: s, contentOffsetY: y))
            }
        }
        for _ in 0..<40 {
            let query = LayoutRect(
                x: random.double(-100...result.contentSize.width), y: random.double(-100...(result.contentSize.height + 100)),
                width: random.double(0...1_500), height: random.double(0...1_200))
            #expect(result.frames(in: query) == reference.frames(in: query), "\(query)")
            #expect(result.itemRanges(in: query) == reference.itemRanges(in: query), "\(query)")
        }
    }

    static let list: CompositionalLayout = {
        let row = size(.fractionalWidth(1), .estimated(44))
        var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: row, subitems: [LayoutItem(layoutSize: row)]))
        section.interGroupSpacing = 2
        return CompositionalLayout(section: section)
    }()

    @Test("a measured row moves what follows it, in its section and the sections after")
    func laterSectionsShift() {
        var result = Self.list.solve(itemCounts: [6, 3], container: phone)
        let before = result
        let grew = result.applyMeasuredSizes([ItemPath(section: 0, item: 2): LayoutPixelSize(width: 390, height: 100)])
        #expect(grew)
        #expect(result.keepsMeasuredGroups(section: 0))
        #expect(result.keepsTemplate(section: 1))
        #expect(result.storedItemFrameCount == 0)
        expectItem(result, 0, 1, rect(0, 46, 390, 44))
        expectItem(result, 0, 2, rect(0, 92, 390, 100))
        expectItem(result, 0, 3, rect(0, 194, 390, 44))
        let moved = before.itemFrame(at: ItemPath(section: 1, item: 2))!.offsetBy(dx: 0, dy: 56)
        expectItem(result, 1, 2, moved)
        #expect(result.contentSize.height == before.contentSize.height + 56)
        #expect(result.sections[1].frame == before.sections[1].frame.offsetBy(dx: 0, dy: 56))
        // Shrinking it back to its estimate restores the first layout's frames.
        let shrank = result.applyMeasuredSizes([ItemPath(section: 0, item: 2): LayoutPixelSize(width: 390, height: 44)])
        #expect(shrank)
        #expect(result == before)
    }

    @Test("a row of a grid is as tall as its tallest measured item")
    func gridRowTallest() {
        let item = LayoutItem(layoutSize: size(.fractionalWidth(0.5), .estimated(40)))
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1), .estimated(40)), subitem: item, count: 2)
        let layout = CompositionalLayout(section: LayoutSection(group: group))
        var result = layout.solve(itemCounts: [6], container: phone)
        let tallerRow = result.applyMeasuredSizes([ItemPath(section: 0, item: 1): LayoutPixelSize(width: 0, height: 90)])
        #expect(tallerRow)
        expectItem(result, 0, 2, rect(0, 90, 195, 40))
        // A shorter item in the same row changes its own frame but not the row's height.
        let shorterItem = result.applyMeasuredSizes([ItemPath(section: 0, item: 0): LayoutPixelSize(width: 0, height: 60)])
        #expect(shorterItem)
        expectItem(result, 0, 0, rect(0, 0, 195, 60))
        expectItem(result, 0, 2, rect(0, 90, 195, 40))
        #expect(result == layout.solve(itemCounts: [6], container: phone, measuredSizes: [
            ItemPath(section: 0, item: 1): LayoutPixelSize(width: 0, height: 90),
            ItemPath(section: 0, item: 0): LayoutPixelSize(width: 0, height: 60),
        ]))
    }

    @Test("a measured header moves its section's items and the sections after")
    func measuredHeader() {
        let layout = CompositionalLayout { _, _ in
            let row = size(.fractionalWidth(1), .estimated(44))
            var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: row, subitems: [LayoutItem(layoutSize: row)]))
            section.boundarySupplementaryItems = [LayoutBoundarySupplementaryItem(
                layoutSize: size(.fractionalWidth(1), .estimated(30)), elementKind: "header", alignment: .top)]
            return section
        }
        var result = layout.solve(itemCounts: [3, 3], container: phone)
        let header = SupplementaryPath(kind: "header", section: 0)
        let measuredHeader = result.applyMeasuredSizes([:], supplementaries: [header: LayoutPixelSize(width: 390, height: 50)])
        #expect(measuredHeader)
        expectItem(result, 0, 0, rect(0, 50, 390, 44))
        #expect(result.supplementary(ofKind: "header", at: ItemPath(section: 1, item: 0))?.frame == rect(0, 50 + 3 * 44, 390, 30))
        #expect(result == layout.solve(itemCounts: [3, 3], container: phone, measuredSupplementarySizes: [header: LayoutPixelSize(width: 390, height: 50)]))
        let sameHeader = result.applyMeasuredSizes([:], supplementaries: [header: LayoutPixelSize(width: 390, height: 50)])
        #expect(!sameHeader)
    }

    @Test("measurements that change no frame return false")
    func nothingChanges() {
        var fixed = SeedLayouts.basicList.solve(itemCounts: [10], container: phone)
        let before = fixed
        let fixedChanged = fixed.applyMeasuredSizes([ItemPath(section: 0, item: 3): LayoutPixelSize(width: 390, height: 80)])
        #expect(!fixedChanged)
        #expect(fixed == before)

        var list = Self.list.solve(itemCounts: [10], container: phone)
        let estimated = list
        // Equal to the estimate; past the last item; in no section.
        let ignored = list.applyMeasuredSizes([
            ItemPath(section: 0, item: 4): LayoutPixelSize(width: 390, height: 44),
            ItemPath(section: 0, item: 10): LayoutPixelSize(width: 390, height: 80),
            ItemPath(section: 3, item: 0): LayoutPixelSize(width: 390, height: 80),
            ItemPath(section: 0, item: -1): LayoutPixelSize(width: 390, height: 80),
        ])
        #expect(!ignored)
        #expect(list == estimated)
        let measured = list.applyMeasuredSizes([ItemPath(section: 0, item: 4): LayoutPixelSize(width: 390, height: 60)])
        #expect(measured)
        let repeated = list.applyMeasuredSizes([ItemPath(section: 0, item: 4): LayoutPixelSize(width: 390, height: 60)])
        #expect(!repeated)
        // Only the height is estimated: another width changes nothing.
        let widthOnly = list.applyMeasuredSizes([ItemPath(section: 0, item: 4): LayoutPixelSize(width: 100, height: 60)])
        #expect(!widthOnly)
    }

    @Test("sizes a client may send: negative ones clamp the row, infinite ones store the section's frames, none crashes")
    func oddSizes() {
        var result = Self.list.solve(itemCounts: [20, 5], container: phone)
        var union: [ItemPath: LayoutPixelSize] = [:]
        func apply(_ item: Int, _ height: Double) {
            let sizes = [ItemPath(section: 0, item: item): LayoutPixelSize(width: 390, height: height)]
            union.merge(sizes) { $1 }
            _ = result.applyMeasuredSizes(sizes)
        }
        func fresh() -> LayoutResult { Self.list.solve(itemCounts: [20, 5], container: phone, measuredSizes: union) }
        apply(3, 60)
        apply(5, -50)   // the row is as tall as its content, never less than 0
        #expect(result.keepsMeasuredGroups(section: 0))
        #expect(result == fresh())
        apply(6, .infinity)   // no sum can place what follows: the section stores its frames
        #expect(!result.keepsMeasuredGroups(section: 0))
        // (What follows is at infinity, and the next section's height not a number: compare what is not.)
        let reference = fresh()
        for item in 0...6 {
            #expect(result.itemFrame(at: ItemPath(section: 0, item: item)) == reference.itemFrame(at: ItemPath(section: 0, item: item)))
        }
        apply(6, 50)          // a sane size again: measured groups again
        #expect(result.keepsMeasuredGroups(section: 0))
        #expect(result == fresh())
        for height in [-Double.infinity, Double.nan] {
            var odd = result
            _ = odd.applyMeasuredSizes([ItemPath(section: 0, item: 7): LayoutPixelSize(width: 390, height: height)])
            _ = odd.frames(in: LayoutRect(x: 0, y: 0, width: 390, height: 844))
            _ = odd.itemRanges(in: LayoutRect(x: 0, y: 100, width: 390, height: 844))
            #expect(odd.itemFrame(at: ItemPath(section: 0, item: 2)) == result.itemFrame(at: ItemPath(section: 0, item: 2)))
        }
    }

    @Test("a screen of measurements on a 100,000-row list stores no frame and matches a fresh solve")
    func largeList() {
        var result = Self.list.solve(itemCounts: [100_000], container: phone)
        var union: [ItemPath: LayoutPixelSize] = [:]
        var random = SplitMix64(seed: 7)
        for screen in [0, 50_000, 99_980] {
            var batch: [ItemPath: LayoutPixelSize] = [:]
            for item in screen..<min(screen + 40, 100_000) {
                batch[ItemPath(section: 0, item: item)] = LayoutPixelSize(width: 390, height: Double.random(in: 20...200, using: &random))
            }
            union.merge(batch) { $1 }
            let moved = result.applyMeasuredSizes(batch)
            #expect(moved)
        }
        #expect(result.storedItemFrameCount == 0)
        #expect(result.keepsMeasuredGroups(section: 0))
        #expect(result.measuredGroupsInvariantViolations() == [])
        let fresh = Self.list.solve(itemCounts: [100_000], container: phone, measuredSizes: union)
        #expect(result.contentSize == fresh.contentSize)
        for item in [0, 39, 40, 41, 49_999, 50_000, 50_039, 50_040, 99_979, 99_980, 99_999] {
            #expect(result.itemFrame(at: ItemPath(section: 0, item: item)) == fresh.itemFrame(at: ItemPath(section: 0, item: item)))
        }
        let window = LayoutRect(x: 0, y: fresh.itemFrame(at: ItemPath(section: 0, item: 50_010))!.y, width: 390, height: 844)
        #expect(result.frames(in: window) == fresh.frames(in: window))
        #expect(result.itemRanges(in: window) == fresh.itemRanges(in: window))
    }

    @Test("self-sizing axes: estimated dimensions of items and boundary supplementaries")
    func selfSizingAxes() {
        let layout = CompositionalLayout { index, _ in
            let item = LayoutItem(layoutSize: size(.fractionalWidth(0.5), index == 0 ? .estimated(40) : .absolute(40)))
            let wide = LayoutItem(layoutSize: size(.estimated(80), .estimated(40)))
            var section = LayoutSection(group: LayoutGroup.horizontal(
                layoutSize: size(.fractionalWidth(1), .estimated(40)), subitems: [item, wide]))
            section.boundarySupplementaryItems = [LayoutBoundarySupplementaryItem(
                layoutSize: size(.fractionalWidth(1), .estimated(30)), elementKind: "header", alignment: .top)]
            return section
        }
        let result = layout.solve(itemCounts: [5, 2], container: phone)
        #expect(result.selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 0)) == .height)
        #expect(result.selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 3)) == SelfSizingAxes([.width, .height]))
        #expect(result.selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 4)) == .height)
        #expect(result.selfSizingAxes(ofItemAt: ItemPath(section: 1, item: 0)).isEmpty)
        #expect(result.selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 5)).isEmpty)
        #expect(result.selfSizingAxes(ofItemAt: ItemPath(section: 2, item: 0)).isEmpty)
        #expect(result.selfSizingAxes(of: SupplementaryPath(kind: "header", section: 1)) == .height)
        #expect(result.selfSizingAxes(of: SupplementaryPath(kind: "footer", section: 1)).isEmpty)
        #expect(result.selfSizingAxes(of: SupplementaryPath(kind: "header", section: -1)).isEmpty)
        #expect(SeedLayouts.basicList.solve(itemCounts: [3], container: phone).selfSizingAxes(ofItemAt: ItemPath(section: 0, item: 1)).isEmpty)
    }
}
