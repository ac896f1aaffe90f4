// Release-mode benchmarks of the compositional layout solver (issues 4 and 10).
//
//   swift run -c release --package-path Benchmarks --scratch-path .build-bench LayoutBenchmarks
//
// Each case runs `runs` times after a warm-up; the tables show medians. Issue 4's targets:
// solving is linear in items at < 30 ns per item; frames(in:) of one screen is under 50 µs.
// Issue 10: a section whose groups are all alike keeps its template, so its solve does not grow
// with its items; "before" is the stamping solver (`solveStamped`), measured in the same run.
@_spi(Reference) import CompositionalLayout
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

let runs = 11
let clock = ContinuousClock()
var checksum = 0.0   // printed at the end, so the optimiser keeps the work

func nanoseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
}

/// Runs `body` `runs` times (after one warm-up) and returns the median duration in ns.
@MainActor func median(_ body: () -> Double) -> Double {
    checksum += body()
    var samples: [Double] = []
    for _ in 0..<runs {
        var value = 0.0
        let elapsed = clock.measure { value = body() }
        checksum += value
        samples.append(nanoseconds(elapsed))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func size(_ w: LayoutDimension, _ h: LayoutDimension) -> LayoutSize {
    LayoutSize(widthDimension: w, heightDimension: h)
}

// MARK: Layouts (the seeds' and Apple's)

let leftThreeRightThree = CompositionalLayout { _, _ in
    func item(_ fraction: Double) -> LayoutItem {
        var item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(fraction)))
        item.contentInsets = .uniform(2)
        return item
    }
    let leading = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)), subitems: [item(0.35), item(0.2), item(0.45)])
    let trailing = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)), subitems: [item(0.5), item(0.2), item(0.3)])
    return LayoutSection(group: LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)), subitems: [leading, trailing]))
}

let threeColumnGrid = CompositionalLayout { _, environment in
    let side = (environment.container.effectiveContentSize.width - 32 - 16) / 3
    var group = LayoutGroup.horizontal(
        layoutSize: size(.fractionalWidth(1.0), .absolute(side)),
        subitem: LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0))), count: 3)
    group.interItemSpacing = .fixed(8)
    var section = LayoutSection(group: group)
    section.interGroupSpacing = 8
    section.contentInsets = .uniform(16)
    return section
}

let mountains = CompositionalLayout { _, environment in
    let columns = environment.container.effectiveContentSize.width > 800 ? 3 : 2
    var group = LayoutGroup.horizontal(
        layoutSize: size(.fractionalWidth(1.0), .absolute(32)),
        subitem: LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0))), count: columns)
    group.interItemSpacing = .fixed(10)
    var section = LayoutSection(group: group)
    section.interGroupSpacing = 10
    section.contentInsets = .uniform(10)
    return section
}

let basicList = CompositionalLayout(section: LayoutSection(group: LayoutGroup.horizontal(
    layoutSize: size(.fractionalWidth(1.0), .absolute(44)),
    subitems: [LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))])))

let selfSizingList = CompositionalLayout { _, environment in
    LayoutSection.list(using: ListConfiguration(appearance: .insetGrouped), layoutEnvironment: environment)
}

let phone = LayoutContainer(width: 390, height: 844)
let desktop = LayoutContainer(width: 1024, height: 768)

// Issue 23 first (`--self-sizing` runs it alone).
let selfSizing = selfSizingBenchmark()
if CommandLine.arguments.contains("--self-sizing") {
    printSelfSizing(selfSizing)
print("\n(\(runs) runs per case, medians; checksum \(Int(checksum) % 1_000_000_007))")
    exit(0)
}

// MARK: Cases

struct Row {
    var name: String
    var items: Int
    var medianNs: Double
    var perItem: Bool
}
var rows: [Row] = []

@MainActor func solveCase(_ name: String, _ layout: CompositionalLayout, items: Int, container: LayoutContainer,
               measured: [ItemPath: LayoutPixelSize] = [:]) {
    let ns = median { layout.solve(itemCounts: [items], container: container, measuredSizes: measured).contentSize.height }
    rows.append(Row(name: name, items: items, medianNs: ns, perItem: true))
}

solveCase("leftThreeRightThree, 390×844", leftThreeRightThree, items: 100_000, container: phone)
solveCase("3-column square grid, 390×844", threeColumnGrid, items: 100_000, container: phone)
solveCase("basic 44-px list, 390×844", basicList, items: 100_000, container: phone)

// Re-layout after a viewport resize: the Mountains grid goes from 2 to 3 columns and back.
do {
    var flip = false
    let ns = median {
        flip.toggle()
        return mountains.solve(itemCounts: [100_000], container: flip ? desktop : phone).contentSize.height
    }
    rows.append(Row(name: "re-layout after resize (Mountains, 390↔1024)", items: 100_000, medianNs: ns, perItem: true))
}

// Self-sizing: an inset-grouped list where 1% of the rows have been measured.
do {
    var measured: [ItemPath: LayoutPixelSize] = [:]
    for i in stride(from: 0, to: 100_000, by: 100) { measured[ItemPath(section: 0, item: i)] = LayoutPixelSize(width: 350, height: 61) }
    solveCase("self-sizing list, 1,000 measured rows", selfSizingList, items: 100_000, container: phone, measured: measured)
}

// frames(in:) of one screen in a 1M-item list, at offsets spread over the list.
do {
    let million = basicList.solve(itemCounts: [1_000_000], container: phone)
    let queries = 1_000
    let height = million.contentSize.height - 844
    var found = 0
    let ns = median {
        var count = 0
        for q in 0..<queries {
            let y = height * Double((q &* 7919) % queries) / Double(queries)
            count += million.frames(in: LayoutRect(x: 0, y: y, width: 390, height: 844)).count
        }
        found = count / queries
        return Double(count)
    } / Double(queries)
    rows.append(Row(name: "frames(in:) one 390×844 screen, 1M-item list (\(found) elements)", items: 1_000_000, medianNs: ns, perItem: false))
}

// MARK: Issue 10: template sections against stamped frames, in the same run

struct Comparison {
    var name: String
    var items: Int
    var beforeNs: Double
    var afterNs: Double
}
var comparisons: [Comparison] = []

@MainActor func compareSolve(_ name: String, _ layout: CompositionalLayout, items: Int, container: LayoutContainer,
                             measured: [ItemPath: LayoutPixelSize] = [:]) {
    let before = median { layout.solveStamped(itemCounts: [items], container: container, measuredSizes: measured).contentSize.height }
    let after = median { layout.solve(itemCounts: [items], container: container, measuredSizes: measured).contentSize.height }
    comparisons.append(Comparison(name: name, items: items, beforeNs: before, afterNs: after))
}

for items in [10_000, 100_000, 1_000_000] {
    compareSolve("solve: Mountains grid, 2 columns (390×844)", mountains, items: items, container: phone)
    compareSolve("solve: Mountains grid, 3 columns (1024×768)", mountains, items: items, container: desktop)
    compareSolve("solve: 44-px list (390×844)", basicList, items: items, container: phone)
}

// A section with measured rows: measured groups over its template (issue 23), stamped frames before.
do {
    var measured: [ItemPath: LayoutPixelSize] = [:]
    for i in stride(from: 0, to: 100_000, by: 100) { measured[ItemPath(section: 0, item: i)] = LayoutPixelSize(width: 350, height: 61) }
    compareSolve("solve: self-sizing list, 1,000 measured rows", selfSizingList, items: 100_000, container: phone, measured: measured)
}

/// One 844-px screen at 1,000 offsets spread over the content: the median time per query.
@MainActor func perScreen(_ result: LayoutResult, width: Double = 390, _ query: (LayoutResult, LayoutRect) -> Int) -> (ns: Double, found: Int) {
    let queries = 1_000
    let height = max(0, result.contentSize.height - 844)
    var found = 0
    let ns = median {
        var count = 0
        for q in 0..<queries {
            let y = height * Double((q &* 7919) % queries) / Double(queries)
            count += query(result, LayoutRect(x: 0, y: y, width: width, height: 844))
        }
        found = count / queries
        return Double(count)
    } / Double(queries)
    return (ns, found)
}

for (name, layout) in [("Mountains grid, 2 columns", mountains), ("44-px list", basicList)] {
    let before = layout.solveStamped(itemCounts: [1_000_000], container: phone)
    let after = layout.solve(itemCounts: [1_000_000], container: phone)
    let (beforeNs, found) = perScreen(before) { $0.frames(in: $1).count }
    let (afterNs, _) = perScreen(after) { $0.frames(in: $1).count }
    comparisons.append(Comparison(name: "frames(in:) one 390×844 screen, \(name) (\(found) elements)", items: 1_000_000, beforeNs: beforeNs, afterNs: afterNs))
    let (rangesBefore, _) = perScreen(before) { $0.itemRanges(in: $1).reduce(0) { $0 + $1.items.count } }
    let (rangesAfter, _) = perScreen(after) { $0.itemRanges(in: $1).reduce(0) { $0 + $1.items.count } }
    comparisons.append(Comparison(name: "itemRanges(in:) one 390×844 screen, \(name)", items: 1_000_000, beforeNs: rangesBefore, afterNs: rangesAfter))
}

// A window as the web layer asks for it: one solve of 100,000 items, then the frames of one
// screen through itemRanges(in:) and itemFrame(at:).
do {
    @MainActor func window(_ solve: () -> LayoutResult) -> Double {
        median {
            let result = solve()
            var sum = 0.0
            for range in result.itemRanges(in: LayoutRect(x: 0, y: 2_000_000, width: 390, height: 844)) {
                for item in range.items { sum += result.itemFrame(at: ItemPath(section: range.section, item: item))?.y ?? 0 }
            }
            return sum
        }
    }
    let before = window { mountains.solveStamped(itemCounts: [100_000], container: phone) }
    let after = window { mountains.solve(itemCounts: [100_000], container: phone) }
    comparisons.append(Comparison(name: "solve + one screen's frames (Mountains, 2 columns)", items: 100_000, beforeNs: before, afterNs: after))
}

// MARK: Report

print("| case | items | median | ns per item |")
print("|---|---:|---:|---:|")
for row in rows {
    let time = row.medianNs >= 1e6 ? "\(formatted(row.medianNs / 1e6)) ms" : "\(formatted(row.medianNs / 1e3)) µs"
    let perItem = row.perItem ? formatted(row.medianNs / Double(row.items)) : "—"
    print("| \(row.name) | \(row.items) | \(time) | \(perItem) |")
}

func time(_ ns: Double) -> String {
    ns >= 1e6 ? "\(formatted(ns / 1e6)) ms" : ns >= 1e3 ? "\(formatted(ns / 1e3)) µs" : "\(formatted(ns)) ns"
}
print("\n| case | items | before (stamped) | after (template) | before ÷ after |")
print("|---|---:|---:|---:|---:|")
for row in comparisons {
    print("| \(row.name) | \(row.items) | \(time(row.beforeNs)) | \(time(row.afterNs)) | \(formatted(row.beforeNs / row.afterNs))× |")
}
printSelfSizing(selfSizing)
print("\n(\(runs) runs per case, medians; checksum \(Int(checksum) % 1_000_000_007))")

/// Two decimals, without Foundation (and without libm's `round`).
func formatted(_ value: Double) -> String {
    let hundredths = Int(value * 100 + 0.5)
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
