import SeededRandom
import CompositionalLayout
import Testing

/// Random nested layouts and item counts, from fixed seeds.
@Suite("Properties of random layouts")
struct PropertyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let seed: UInt64
        var testDescription: String { "seed \(seed)" }
    }

    static let cases = (1...60).map { Case(seed: UInt64($0) &* 0x1234_5678_9ABC) }

    /// A random layout, counts, container and measured sizes.
    static func scenario(_ seed: UInt64) -> (LayoutResult, [Int], RandomLayouts) {
        var random = RandomLayouts(rng: SplitMix64(seed: seed))
        let sectionCount = random.int(1...4)
        var sections: [LayoutSection] = []
        var measured: [ItemPath: LayoutPixelSize] = [:]
        var counts: [Int] = []
        for s in 0..<sectionCount {
            let count = random.int(0...150)
            counts.append(count)
            if random.chance(0.2) {
                sections.append(random.estimatedList())
                for i in 0..<count where random.chance(0.3) {
                    measured[ItemPath(section: s, item: i)] = LayoutPixelSize(width: 0, height: random.double(10...120))
                }
            } else {
                sections.append(random.section())
            }
        }
        var configuration = CompositionalLayoutConfiguration()
        configuration.interSectionSpacing = random.chance(0.5) ? 0 : random.double(0...30)
        let frozen = sections
        let layout = CompositionalLayout(configuration: configuration) { index, _ in frozen[index] }
        let container = LayoutContainer(width: random.double(320...1400), height: random.double(480...1000))
        return (layout.solve(itemCounts: counts, container: container, measuredSizes: measured), counts, random)
    }

    /// Every element, as the brute-force reference for `frames(in:)`.
    static func allElements(_ result: LayoutResult) -> [LayoutElement] {
        Array(result.items) + result.supplementaries.map(\.element) + result.decorations.map(\.element)
    }

    @Test("every item gets a finite frame, in section/item order", arguments: cases)
    func everyItemHasAFrame(_ c: Case) {
        let (result, counts, _) = Self.scenario(c.seed)
        #expect(result.itemCount == counts.reduce(0, +))
        var flat = 0
        for (s, count) in counts.enumerated() {
            for i in 0..<count {
                let frame = result.itemFrame(at: ItemPath(section: s, item: i))
                #expect(frame != nil)
                if let frame {
                    #expect(frame.x.isFinite && frame.y.isFinite && frame.width >= 0 && frame.height >= 0)
                    #expect(result.items[flat] == LayoutElement(category: .item, indexPath: ItemPath(section: s, item: i), frame: frame))
                }
                flat += 1
            }
            #expect(result.itemFrame(at: ItemPath(section: s, item: count)) == nil)
        }
    }

    @Test("item frames never overlap", arguments: cases)
    func noOverlap(_ c: Case) {
        let (result, counts, _) = Self.scenario(c.seed)
        for (s, count) in counts.enumerated() {
            let frames = (0..<count).compactMap { result.itemFrame(at: ItemPath(section: s, item: $0)) }
            for i in frames.indices {
                for j in frames.indices where j > i {
                    let a = frames[i], b = frames[j]
                    // Overlap deeper than a hundredth of a pixel (floating-point rounding aside).
                    let overlapX = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                    let overlapY = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                    #expect(!(overlapX > 0.01 && overlapY > 0.01), "[\(s), \(i)] \(a) overlaps [\(s), \(j)] \(b)")
                }
            }
        }
    }

    @Test("the content size encloses every frame", arguments: cases)
    func contentEnclosesFrames(_ c: Case) {
        let (result, _, _) = Self.scenario(c.seed)
        let epsilon = 0.01
        for element in Self.allElements(result) {
            let s = element.indexPath.section
            let width = s >= 0 && result.sections[s].isOrthogonal ? result.sections[s].scrollableContentWidth : result.contentSize.width
            let f = element.frame
            #expect(f.minX >= -epsilon && f.maxX <= width + epsilon && f.minY >= -epsilon && f.maxY <= result.contentSize.height + epsilon,
                    "\(element) outside \(width) × \(result.contentSize.height)")
        }
    }

    @Test("frames(in:) returns exactly what brute-force filtering returns", arguments: cases)
    func framesInMatchesBruteForce(_ c: Case) {
        var (result, _, random) = Self.scenario(c.seed)
        let all = Self.allElements(result)
        for _ in 0..<25 {
            let query = LayoutRect(
                x: random.double(-100...result.contentSize.width), y: random.double(-100...(result.contentSize.height + 100)),
                width: random.double(0...1_500), height: random.double(0...1_200))
            var offsets: [Int: Double] = [:]
            for section in result.sections where section.isOrthogonal && random.chance(0.7) {
                offsets[section.index] = random.double(0...max(0, section.scrollableContentWidth))
            }
            let expected = all.filter { element in
                let s = element.indexPath.section
                let orthogonalItem = s >= 0 && result.sections[s].isOrthogonal
                    && (element.category == .item || element.category == .supplementary(kind: "badge"))
                return element.frame.intersects(orthogonalItem ? query.offsetBy(dx: offsets[s] ?? 0, dy: 0) : query)
            }
            let found = result.frames(in: query, orthogonalOffsets: offsets)
            #expect(found.count == expected.count)
            #expect(Set(found) == Set(expected))
        }
    }

    @Test("solving twice gives equal results", arguments: cases.prefix(10))
    func deterministic(_ c: Case) {
        let (a, _, _) = Self.scenario(c.seed)
        let (b, _, _) = Self.scenario(c.seed)
        #expect(a == b)
    }
}
