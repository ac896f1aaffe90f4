// Issue 23: one screen of measurements applied in place (`applyMeasuredSizes`) against a full
// re-solve with the same measurements, in the same run.
@_spi(Reference) import CompositionalLayout

/// A one-column list of estimated 44-px rows.
let estimatedRows = CompositionalLayout(section: LayoutSection(group: LayoutGroup.horizontal(
    layoutSize: size(.fractionalWidth(1.0), .estimated(44)),
    subitems: [LayoutItem(layoutSize: size(.fractionalWidth(1.0), .estimated(44)))])))

/// Ten screens of 40 measured rows, spread over a list of `items`, with heights 30 … 129.
func screens(items: Int) -> [[ItemPath: LayoutPixelSize]] {
    (0..<10).map { s in
        let start = min(items - 40, s * (items / 10) + 17)
        var screen: [ItemPath: LayoutPixelSize] = [:]
        for item in start..<(start + 40) {
            screen[ItemPath(section: 0, item: item)] = LayoutPixelSize(width: 390, height: Double(30 + (item &* 7919) % 100))
        }
        return screen
    }
}

struct SelfSizingRow {
    var items: Int
    var firstScreenNs: Double
    var screenNs: Double
    /// One screen applied to a copy of a result that stays shared (a cache keeping the old one):
    /// the copy-on-write of the sum tree and the measured groups comes first.
    var sharedScreenNs: Double
    var solveNs: Double
    var stampedNs: Double
    /// frames(in:) and itemRanges(in:) of one 390×844 screen after the ten screens, against the
    /// same list with nothing measured (its template alone).
    var framesNs: Double
    var templateFramesNs: Double
    var rangesNs: Double
    var templateRangesNs: Double
}

/// Per list size: the median cost of one screen applied in place (the list already holding
/// measurements, so its sum tree exists), the first screen of a list (which builds the tree),
/// and a full re-solve with the union of the ten screens (`solve` and `solveStamped`).
@MainActor func selfSizingBenchmark() -> [SelfSizingRow] {
    var table: [SelfSizingRow] = []
    for items in [10_000, 100_000] {
        let batches = screens(items: items)
        var union: [ItemPath: LayoutPixelSize] = [:]
        for batch in batches { union.merge(batch) { $1 } }
        var screenSamples: [Double] = []
        var firstScreens: [Double] = []
        for run in 0...runs {
            var result = estimatedRows.solve(itemCounts: [items], container: phone)
            // The first measurement of the list builds its sum tree: timed on its own.
            let first = [ItemPath(section: 0, item: 3): LayoutPixelSize(width: 390, height: 61)]
            let firstElapsed = clock.measure { _ = result.applyMeasuredSizes(first) }
            for batch in batches {
                var changed = false
                let elapsed = clock.measure { changed = result.applyMeasuredSizes(batch) }
                precondition(changed, "a screen of new heights must move frames")
                if run > 0 { screenSamples.append(nanoseconds(elapsed)) }
            }
            if run > 0 { firstScreens.append(nanoseconds(firstElapsed)) }
            checksum += result.contentSize.height
            if run == 0 {
                var all = union
                all[ItemPath(section: 0, item: 3)] = LayoutPixelSize(width: 390, height: 61)
                precondition(result == estimatedRows.solve(itemCounts: [items], container: phone, measuredSizes: all),
                             "in place and fresh must agree")
            }
        }
        var measuredResult = estimatedRows.solve(itemCounts: [items], container: phone)
        measuredResult.applyMeasuredSizes(union)
        let shared = median {
            var copy = measuredResult
            copy.applyMeasuredSizes([ItemPath(section: 0, item: items / 2): LayoutPixelSize(width: 390, height: 77)])
            return copy.contentSize.height
        }
        let templateResult = estimatedRows.solve(itemCounts: [items], container: phone)
        let frames = perScreen(measuredResult) { $0.frames(in: $1).count }.ns
        let templateFrames = perScreen(templateResult) { $0.frames(in: $1).count }.ns
        let ranges = perScreen(measuredResult) { $0.itemRanges(in: $1).reduce(0) { $0 + $1.items.count } }.ns
        let templateRanges = perScreen(templateResult) { $0.itemRanges(in: $1).reduce(0) { $0 + $1.items.count } }.ns
        screenSamples.sort()
        firstScreens.sort()
        let solve = median { estimatedRows.solve(itemCounts: [items], container: phone, measuredSizes: union).contentSize.height }
        let stamped = median { estimatedRows.solveStamped(itemCounts: [items], container: phone, measuredSizes: union).contentSize.height }
        table.append(SelfSizingRow(
            items: items, firstScreenNs: firstScreens[firstScreens.count / 2], screenNs: screenSamples[screenSamples.count / 2],
            sharedScreenNs: shared,
            solveNs: solve, stampedNs: stamped, framesNs: frames, templateFramesNs: templateFrames,
            rangesNs: ranges, templateRangesNs: templateRanges))
    }
    return table
}

@MainActor func printSelfSizing(_ table: [SelfSizingRow]) {
    print("\n| list (one column, estimated 44-px rows) | one screen in place (40 cells) | per measured cell | first measurement of the list | full solve, 400 measured | full solveStamped, 400 measured | solve ÷ in place |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in table {
        print("| \(row.items) items | \(time(row.screenNs)) | \(time(row.screenNs / 40)) | \(time(row.firstScreenNs)) | \(time(row.solveNs)) | \(time(row.stampedNs)) | \(formatted(row.solveNs / row.screenNs))× |")
    }
    print("\n| list | one measurement applied to a copy of a shared result (copy-on-write of the tree and groups first) |")
    print("|---|---:|")
    for row in table { print("| \(row.items) items | \(time(row.sharedScreenNs)) |") }
    print("\n| one 390×844 screen (measured list after the ten screens ÷ nothing measured) | frames(in:) | itemRanges(in:) |")
    print("|---|---:|---:|")
    for row in table {
        print("| \(row.items) items | \(time(row.framesNs)) ÷ \(time(row.templateFramesNs)) | \(time(row.rangesNs)) ÷ \(time(row.templateRangesNs)) |")
    }
}
