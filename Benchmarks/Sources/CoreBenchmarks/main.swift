// Release-mode benchmark of the diff and of snapshot operations.
//
//   make bench-core            (swift run -c release --package-path Benchmarks CoreBenchmarks)
//   make bench-core ARGS=--quick
//
// Every case reports a median over several runs. Two baselines run in the same process on
// the same arrays: the *floor* (one [UUID: Int] dictionary with reserved capacity over the
// old ids, then a lookup of every new id: the least any hashing diff must do) and the
// standard library's `difference(from:).inferringMoves()`.
//
// *End to end* is what the seeds and the Mountains demo do on every change: build the new
// snapshot from an array (`appendSections`, `appendItems`, and `reconfigureItems` where the
// scenario has reconfigures) and diff it against the existing old snapshot.
//
// The floor, the diff and end to end run interleaved, round after round, and each "× floor"
// is the median over rounds of that round's ratio: on a busy shared machine the absolute
// times move a lot between runs, the ratios much less.
import DiffableDataSources
import Foundation

let quick = CommandLine.arguments.contains("--quick")

func median(runs: Int, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Runs the bodies in turn, `runs` rounds, and returns each one's median (ms) and the median
/// over rounds of each one's time divided by the first one's. Interleaving makes a busy shared
/// machine slow every body of a round alike, so the ratios stay meaningful when times do not.
func interleaved(runs: Int, _ bodies: [() -> Void]) -> (medians: [Double], ratios: [Double]) {
    var samples = [[Double]](repeating: [], count: bodies.count)
    var ratios = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<runs {
        var round: [Double] = []
        for body in bodies {
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            round.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
        }
        for (k, time) in round.enumerated() { samples[k].append(time); ratios[k].append(time / round[0]) }
    }
    func middle(_ values: [Double]) -> Double { let sorted = values.sorted(); return sorted[sorted.count / 2] }
    return (samples.map(middle), ratios.map(middle))
}

func runs(for count: Int) -> Int { quick ? 3 : (count >= 1_000_000 ? 5 : count >= 100_000 ? 9 : 21) }

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

enum Section: Hashable, Sendable { case main }

func snapshot<S: Hashable & Sendable, ID: Hashable & Sendable>(_ ids: [ID], section: S, reconfigure: [ID] = []) -> Snapshot<S, ID> {
    var snapshot = Snapshot<S, ID>()
    do {
        try snapshot.appendSections([section])
        try snapshot.appendItems(ids)
        if !reconfigure.isEmpty { try snapshot.reconfigureItems(reconfigure) }
    } catch { fatalError("benchmark setup: \(error)") }  // generated data, unique by construction
    return snapshot
}
func snapshot(_ ids: [UUID]) -> Snapshot<Section, UUID> { snapshot(ids, section: Section.main) }

/// One [ID: Int] dictionary (reserved capacity) over the old ids, then a lookup of every new id.
func floorBody<ID: Hashable>(_ oldIDs: [ID], _ newIDs: [ID]) -> () -> Void {
    {
        var index = [ID: Int](minimumCapacity: oldIDs.count)
        for (i, id) in oldIDs.enumerated() { index[id] = i }
        var found = 0
        for id in newIDs where index[id] != nil { found &+= 1 }
        blackHole(found)
    }
}

struct Scenario {
    let name: String
    let make: (_ old: [UUID], _ rng: inout SystemRandomNumberGenerator) -> (new: [UUID], reconfigure: [UUID])
}

let scenarios: [Scenario] = [
    Scenario(name: "DifferenceKit's (−10%, +10%, first 2% shuffled)") { old, rng in
        let n = old.count
        var new = Array(old.dropFirst(n / 10))                    // delete the first 10%
        new.append(contentsOf: (0..<n / 10).map { _ in UUID() })  // insert 10%
        new[0..<(n / 50)].shuffle(using: &rng)                    // shuffle the first 2%
        return (new, [])
    },
    Scenario(name: "delete 10%") { old, rng in (old.enumerated().filter { $0.offset % 10 != 3 }.map(\.element), []) },
    Scenario(name: "insert 10%") { old, rng in
        var new: [UUID] = []
        new.reserveCapacity(old.count + old.count / 10)
        for (i, id) in old.enumerated() { new.append(id); if i % 10 == 5 { new.append(UUID()) } }
        return (new, [])
    },
    Scenario(name: "mixed 10% each: delete, insert, move, reconfigure") { old, rng in
        let n = old.count
        var new = old.enumerated().filter { $0.offset % 10 != 1 }.map(\.element)
        var moved: [UUID] = []
        new = new.enumerated().filter { pair in
            if pair.offset % 9 == 4 { moved.append(pair.element); return false } else { return true }
        }.map(\.element)
        // Moved items go to random positions, new ones to spread positions: placed in one
        // linear pass (repeated `Array.insert` would be quadratic at 1M).
        var placed: [(position: Int, order: Int, id: UUID)] = moved.enumerated().map { (Int.random(in: 0...new.count, using: &rng), $0.offset, $0.element) }
        placed += (0..<(n / 10)).map { k in ((k &* 7919) % (new.count + 1), moved.count + k, UUID()) }
        placed.sort { ($0.position, $0.order) < ($1.position, $1.order) }
        var merged: [UUID] = []
        merged.reserveCapacity(new.count + placed.count)
        var next = 0
        for (position, id) in new.enumerated() {
            while next < placed.count && placed[next].position == position { merged.append(placed[next].id); next += 1 }
            merged.append(id)
        }
        merged += placed[next...].map(\.id)
        new = merged
        let reconfigure = stride(from: 0, to: new.count, by: 10).map { new[$0] }
        return (new, reconfigure)
    },
    Scenario(name: "reverse") { old, _ in (old.reversed(), []) },
    Scenario(name: "substring filter (search)") { old, _ in (old.filter { $0.uuidString.contains("A1") }, []) },
    Scenario(name: "identical") { old, _ in (old, []) },
]

// `--profile build|e2e|floor|setup|split [scenario index]`: run one case a few times and exit, for `valgrind --tool=callgrind`.
if let flag = CommandLine.arguments.firstIndex(of: "--profile"), flag + 1 < CommandLine.arguments.count {
    var profileRNG = SystemRandomNumberGenerator()
    let oldIDs = (0..<100_000).map { _ in UUID() }
    // An optional third argument picks the scenario by index (default: DifferenceKit's).
    let scenarioIndex = CommandLine.arguments.count > flag + 2 ? Int(CommandLine.arguments[flag + 2]) ?? 0 : 0
    let (newIDs, _) = scenarios[min(max(scenarioIndex, 0), scenarios.count - 1)].make(oldIDs, &profileRNG)
    let old = snapshot(oldIDs)
    if CommandLine.arguments[flag + 1] == "split" {  // wall-clock medians of the parts
        let new = snapshot(newIDs)
        let (times, ratios) = interleaved(runs: 31, [
            floorBody(oldIDs, newIDs),
            { blackHole(snapshot(newIDs)) },
            { blackHole(Changeset(from: old, to: new)) },
            { blackHole(Changeset(from: old, to: snapshot(newIDs))) },
        ])
        print("floor, build, diff, end to end (ms):", times.map { String(format: "%.2f", $0) }, "× floor:", ratios.map { String(format: "%.2f", $0) })
        exit(0)
    }
    for _ in 0..<3 {
        switch CommandLine.arguments[flag + 1] {
        case "build": blackHole(snapshot(newIDs))
        case "e2e": blackHole(Changeset(from: old, to: snapshot(newIDs)))
        case "floor": floorBody(oldIDs, newIDs)()
        default: break  // "setup": what the other modes cost besides their three runs
        }
    }
    exit(0)
}

var rng = SystemRandomNumberGenerator()
let sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]
print("## Diff (release, medians, ms)\n")
print("End to end: build the new snapshot from its array, then diff it against the old one.\n")
print("| scenario | n | floor | Changeset | × floor | end to end | × floor | stdlib | stdlib ÷ ours | moves |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for scenario in scenarios {
    for n in sizes {
        if n >= 1_000_000 && scenario.name.hasPrefix("mixed") && quick { continue }
        let oldIDs = (0..<n).map { _ in UUID() }
        let (newIDs, reconfigure) = scenario.make(oldIDs, &rng)
        let old = snapshot(oldIDs)
        let new = snapshot(newIDs, section: Section.main, reconfigure: reconfigure)
        let r = runs(for: n)
        var moves = 0
        let (times, ratios) = interleaved(runs: r, [
            floorBody(oldIDs, newIDs),
            {
                let changes = Changeset(from: old, to: new)
                moves = changes.itemMoves.count
                blackHole(changes)
            },
            {
                let built = snapshot(newIDs, section: Section.main, reconfigure: reconfigure)
                blackHole(Changeset(from: old, to: built))
            },
        ])
        let (floor, ours, endToEnd) = (times[0], times[1], times[2])
        // The standard library's diff is quadratic in the worst case: run it where it finishes.
        let stdlibFeasible = n <= 10_000 || (n == 100_000 && scenario.name.hasPrefix("DifferenceKit") && !quick)
        var stdlibText = "—", ratioText = "—"
        if stdlibFeasible {
            let stdlib = median(runs: n >= 100_000 ? 3 : r) { blackHole(newIDs.difference(from: oldIDs).inferringMoves()) }
            stdlibText = String(format: "%.1f", stdlib)
            ratioText = String(format: "%.0f×", stdlib / ours)
        }
        print(String(format: "| %@ | %d | %.2f | %.2f | %.2f | %.2f | **%.2f** | %@ | %@ | %d |",
                     scenario.name, n, floor, ours, ratios[1], endToEnd, ratios[2], stdlibText, ratioText, moves))
    }
}

// The Mountains demo: 10,000 String ids ("m1234"), one section; each keystroke builds the
// filtered snapshot from an array and diffs it against the shown one. The filters keep a
// fixed pseudo-random share of the ids (a one-letter query keeps about 15% of the names, two
// letters about 5%).
print("\n## Mountains-sized: 10,000 String ids, filter changes (release, medians, ms)\n")
print("| transition | old → new items | floor | Changeset | end to end | × floor |")
print("|---|---:|---:|---:|---:|---:|")
let mountainIDs = (0..<10_000).map { "m\($0)" }
func keeps(_ index: Int, percent: Int) -> Bool { (index &* 2_654_435_761) % 1_000 < percent * 10 }
let oneLetter = mountainIDs.indices.filter { keeps($0, percent: 15) }.map { mountainIDs[$0] }
let twoLetters = mountainIDs.indices.filter { keeps($0, percent: 5) }.map { mountainIDs[$0] }
for (name, oldIDs, newIDs) in [("empty query → one letter", mountainIDs, oneLetter),
                               ("one letter → two letters", oneLetter, twoLetters),
                               ("one letter → empty query (backspace)", oneLetter, mountainIDs)] {
    let old = snapshot(oldIDs, section: "mountains")
    let new = snapshot(newIDs, section: "mountains")
    let r = quick ? 21 : 101
    let (times, ratios) = interleaved(runs: r, [
        floorBody(oldIDs, newIDs),
        { blackHole(Changeset(from: old, to: new)) },
        { blackHole(Changeset(from: old, to: snapshot(newIDs, section: "mountains"))) },
    ])
    let (floor, ours, endToEnd) = (times[0], times[1], times[2])
    print(String(format: "| %@ | %d → %d | %.3f | %.3f | %.3f | %.2f |",
                 name, oldIDs.count, newIDs.count, floor, ours, endToEnd, ratios[2]))
}

print("\n## Snapshot operations (release, medians, ms)\n")
print("| case | ms | per op |")
print("|---|---:|---:|")
let bigIDs = (0..<100_000).map { _ in UUID() }
let (buildTimes, buildRatios) = interleaved(runs: quick ? 5 : 21, [
    {
        var index = [UUID: Int](minimumCapacity: bigIDs.count)
        for (i, id) in bigIDs.enumerated() { index[id] = i }
        blackHole(index)
    },
    { blackHole(snapshot(bigIDs)) },
])
print(String(format: "| build a 100,000-item snapshot (`appendSections`, `appendItems`) | %.2f | %.0f ns/item (%.2f × one dictionary) |",
             buildTimes[1], buildTimes[1] * 1e6 / 100_000, buildRatios[1]))
print(String(format: "| for scale: one [UUID: Int] with reserved capacity over the same 100,000 ids | %.2f | %.0f ns/item |",
             buildTimes[0], buildTimes[0] * 1e6 / 100_000))
let mountainBuild = median(runs: quick ? 21 : 101) { blackHole(snapshot(mountainIDs, section: "mountains")) }
print(String(format: "| build a 10,000-item snapshot of String ids (Mountains) | %.3f | %.0f ns/item |", mountainBuild, mountainBuild * 1e6 / 10_000))
let base = snapshot(bigIDs)
var operationRNG = SystemRandomNumberGenerator()
let operations = median(runs: quick ? 3 : 9) {
    var working = base
    var extra: [UUID] = []
    for step in 0..<10_000 {
        let anchor = bigIDs[Int.random(in: 0..<bigIDs.count, using: &operationRNG)]
        do {
            switch step % 5 {
            case 0: let id = UUID(); extra.append(id); try working.insertItems([id], beforeItem: anchor)
            case 1: if let id = extra.popLast() { try working.deleteItems([id]) }
            case 2:
                let other = bigIDs[Int.random(in: 0..<bigIDs.count, using: &operationRNG)]
                if other != anchor { try working.moveItem(other, afterItem: anchor) }
            case 3: blackHole(working.indexOfItem(anchor))
            default: try working.reconfigureItems([anchor])
            }
        } catch { fatalError("benchmark operation: \(error)") }
    }
    blackHole(working)
}
print(String(format: "| 10,000 single-item operations on it (insert, delete, move, indexOfItem, reconfigure) | %.2f | %.2f µs/op |", operations, operations * 1e3 / 10_000))
// A live list's write: one move in a copy of the snapshot while the old version is still held
// (copy-on-write): it costs what it changed (a page of the index, the touched chunk), not the list.
var moveRNG = SystemRandomNumberGenerator()
let copyMove = median(runs: quick ? 5 : 21) {
    for _ in 0..<100 {
        var copy = base
        let item = bigIDs[Int.random(in: 0..<bigIDs.count, using: &moveRNG)], anchor = bigIDs[Int.random(in: 0..<bigIDs.count, using: &moveRNG)]
        if item != anchor { try? copy.moveItem(item, afterItem: anchor) }
        blackHole(copy)
    }
}
print(String(format: "| one move in a copy of it (the old version still held: copy on write) | %.3f | %.1f µs/op |", copyMove / 100, copyMove * 1e3 / 100))

// A snapshot edited many times in the middle of its chunks has stale offset hints; the diff
// repairs them per chunk (one hash per old item at worst), never one chunk scan per item.
var edited = base
var editRNG = SystemRandomNumberGenerator()
for _ in 0..<5_000 {
    let a = bigIDs[Int.random(in: 0..<bigIDs.count, using: &editRNG)], b = bigIDs[Int.random(in: 0..<bigIDs.count, using: &editRNG)]
    if a != b { try? edited.moveItem(a, beforeItem: b) }
}
var target = edited
try? target.deleteItems(Array(bigIDs[0..<1_000]))
let (staleTimes, staleRatios) = interleaved(runs: quick ? 3 : 9, [
    {
        let oldIDs = edited.itemIdentifiers, newIDs = target.itemIdentifiers
        var index = [UUID: Int](minimumCapacity: oldIDs.count)
        for (i, id) in oldIDs.enumerated() { index[id] = i }
        var found = 0
        for id in newIDs where index[id] != nil { found &+= 1 }
        blackHole(found)
    },
    { blackHole(Changeset(from: edited, to: target)) },
])
print(String(format: "| diff after 5,000 random moves (stale offset hints), 100,000 items, −1%% | %.2f | %.2f × floor (floor %.2f ms) |", staleTimes[1], staleRatios[1], staleTimes[0]))
