import SeededRandom
import Testing
@testable import DiffableDataSources

@Suite("Snapshot: random operations agree with a simple model")
struct SnapshotPropertyTests {
    /// Applies one random operation (valid or not) to both the snapshot and the model.
    static func step(_ snapshot: inout Snapshot<String, Int>, _ model: inout SnapshotModel, _ rng: inout SeededRandom, nextItem: inout Int) {
        let items = model.allItems
        func anyItem() -> Int { items.isEmpty || Int.random(in: 0..<10, using: &rng) == 0 ? -1 : items.randomElement(using: &rng)! }
        func anySection() -> String { model.sections.isEmpty || Int.random(in: 0..<10, using: &rng) == 0 ? "nope" : model.sections.randomElement(using: &rng)!.id }
        func fresh(_ count: Int) -> [Int] { defer { nextItem += count }; return Array(nextItem..<(nextItem + count)) }
        let before = snapshot
        var expectedFailure = false
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:
            let id = "s\(nextItem)"; nextItem += 1
            try? snapshot.appendSections([id]); model.sections.append((id, []))
        case 1:
            let count = [1, 3, 700, 1500].randomElement(using: &rng)!
            let section = anySection()
            let new = fresh(count)
            if let index = model.sections.firstIndex(where: { $0.id == section }) {
                #expect(throws: Never.self) { try snapshot.appendItems(new, toSection: section) }
                model.sections[index].items += new
            } else { expectedFailure = true; #expect(throws: SnapshotError.self) { try snapshot.appendItems(new, toSection: section) } }
        case 2, 3:
            let anchor = anyItem(), after = Bool.random(using: &rng)
            let new = fresh([1, 2, 600].randomElement(using: &rng)!)
            if let s = model.sections.firstIndex(where: { $0.items.contains(anchor) }), let i = model.sections[s].items.firstIndex(of: anchor) {
                model.sections[s].items.insert(contentsOf: new, at: after ? i + 1 : i)
                #expect(throws: Never.self) { after ? try snapshot.insertItems(new, afterItem: anchor) : try snapshot.insertItems(new, beforeItem: anchor) }
            } else { expectedFailure = true; #expect(throws: SnapshotError.self) { try snapshot.insertItems(new, beforeItem: anchor) } }
        case 4:
            let victims = (0..<Int.random(in: 1...4, using: &rng)).map { _ in anyItem() }
            if victims.contains(-1) { expectedFailure = true; #expect(throws: SnapshotError.self) { try snapshot.deleteItems(victims) } }
            else {
                #expect(throws: Never.self) { try snapshot.deleteItems(victims) }
                for s in model.sections.indices { model.sections[s].items.removeAll { victims.contains($0) } }
            }
        case 5, 6:
            let item = anyItem(), anchor = anyItem(), after = Bool.random(using: &rng)
            if item == -1 || anchor == -1 || item == anchor {
                expectedFailure = true; #expect(throws: SnapshotError.self) { try snapshot.moveItem(item, beforeItem: anchor) }
            } else {
                #expect(throws: Never.self) { after ? try snapshot.moveItem(item, afterItem: anchor) : try snapshot.moveItem(item, beforeItem: anchor) }
                for s in model.sections.indices { model.sections[s].items.removeAll { $0 == item } }
                let s = model.sections.firstIndex { $0.items.contains(anchor) }!
                let i = model.sections[s].items.firstIndex(of: anchor)!
                model.sections[s].items.insert(item, at: after ? i + 1 : i)
            }
        case 7:
            let section = anySection()
            if let index = model.sections.firstIndex(where: { $0.id == section }) {
                #expect(throws: Never.self) { try snapshot.deleteSections([section]) }
                model.sections.remove(at: index)
            } else { expectedFailure = true; #expect(throws: SnapshotError.self) { try snapshot.deleteSections([section]) } }
        default:
            let section = anySection(), anchor = anySection()
            if section == "nope" || anchor == "nope" || section == anchor {
                expectedFailure = true; #expect(throws: SnapshotError.self) { try snapshot.moveSection(section, afterSection: anchor) }
            } else {
                #expect(throws: Never.self) { try snapshot.moveSection(section, afterSection: anchor) }
                let moved = model.sections.remove(at: model.sections.firstIndex { $0.id == section }!)
                model.sections.insert(moved, at: model.sections.firstIndex { $0.id == anchor }! + 1)
            }
        }
        if expectedFailure { #expect(snapshot == before) }
    }

    @Test("200 random operations per seed, with chunk splits, agree with the model", arguments: 1...20)
    func agreesWithModel(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var snapshot = Snapshot<String, Int>()
        var model = SnapshotModel()
        var nextItem = 0
        for _ in 0..<200 {
            Self.step(&snapshot, &model, &rng, nextItem: &nextItem)
            #expect(SnapshotModel(snapshot) == model)
            #expect(snapshot._brokenInvariant() == nil)
            if SnapshotModel(snapshot) != model { return }
        }
        // Every query agrees with the model too.
        let flat = model.allItems
        for (index, item) in flat.enumerated() where index % 97 == 0 {
            #expect(snapshot.indexOfItem(item) == index)
            let s = model.sections.firstIndex { $0.items.contains(item) }!
            #expect(snapshot.sectionIdentifier(containingItem: item) == model.sections[s].id)
            #expect(snapshot.indexPath(ofItem: item) == IndexPath(item: model.sections[s].items.firstIndex(of: item)!, section: s))
        }
        #expect(snapshot.itemIdentifiers == flat)
    }
}

import Foundation
