import DiffableDataSources
import Foundation
import SeededRandom
import Testing
@testable import DiffableWeb

@Suite("Web: a survivor's old position comes from the changeset alone")
struct SurvivorPathsTests {
    @Test("on random pairs, SurvivorPaths agrees with the old snapshot's lookups", arguments: 0..<8)
    func agrees(batch: UInt64) throws {
        for seed in (batch * 100)..<((batch + 1) * 100) {
            var rng = SeededRandom(seed: seed)
            var old = Snapshot<String, String>()
            var next = 0
            for s in 0..<Int.random(in: 0...3, using: &rng) {
                try old.appendSections(["s\(s)"])
                let count = Int.random(in: 0...15, using: &rng)
                try old.appendItems((next..<next + count).map { "i\($0)" }); next += count
            }
            var new = old
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                let items = new.itemIdentifiers, sections = new.sectionIdentifiers
                switch Int.random(in: 0..<6, using: &rng) {
                case 0 where items.count > 1:
                    let a = items.randomElement(using: &rng)!, b = items.randomElement(using: &rng)!
                    if a != b { try new.moveItem(a, afterItem: b) }
                case 1 where !items.isEmpty: try new.deleteItems([items.randomElement(using: &rng)!])
                case 2 where !items.isEmpty: try new.insertItems(["i\(next)"], beforeItem: items.randomElement(using: &rng)!); next += 1
                case 3: try new.appendSections(["n\(next)"]); next += 1
                case 4 where sections.count > 1:
                    let a = sections.randomElement(using: &rng)!, b = sections.randomElement(using: &rng)!
                    if a != b { try new.moveSection(a, beforeSection: b) }
                case 5 where !sections.isEmpty: try new.deleteSections([sections.randomElement(using: &rng)!])
                default: break
                }
            }
            let paths = SurvivorPaths(Changeset(from: old, to: new), old: old, new: new)
            for section in new.sectionIdentifiers {
                for item in try new.itemIdentifiers(inSection: section) {
                    let newPath = try #require(new.indexPath(ofItem: item))
                    #expect(paths.oldPath(newPath) == old.indexPath(ofItem: item), "seed \(seed), item \(item)")
                }
            }
        }
    }
}
