import DiffableDataSources
import Foundation
import SeededRandom
import Testing
@testable import DiffableWeb

/// The store keeps each change as the changeset that turns one version's identifiers into the
/// next (issue 13): what it writes must be exactly what it reads back and applies.
@Suite("Stored changes: a saved changeset brings the old identifiers to the new ones")
struct StoredChangesTests {
    /// A random snapshot over a small universe, so that pairs share items, sections and moves.
    static func randomSnapshot(_ random: inout SeededRandom) -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        var items = (0..<40).map { "i\($0)" + (Bool.random(using: &random) ? "\"q" : "") }.shuffled(using: &random)
        items = Array(items.prefix(Int.random(in: 0...40, using: &random)))
        let sections = ["a", "b", "c", "d:é"].shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random))
        try? snapshot.appendSections(Array(sections))
        for item in items {
            let section = sections.randomElement(using: &random)!
            try? snapshot.appendItems([item], toSection: section)
        }
        return snapshot
    }

    @Test("encode → decode → applying gives the new snapshot, for 500 random pairs")
    func roundTrip() throws {
        var random = SeededRandom(seed: 0x5709_ED)
        for _ in 0..<500 {
            let old = Self.randomSnapshot(&random), new = Self.randomSnapshot(&random)
            let text = StoredChangeset.encode(Changeset(from: old, to: new))
            let decoded = try StoredChangeset.decode(text)
            #expect(try old.applying(decoded) == new)
        }
    }

    @Test("malformed stored changesets are errors, not crashes", arguments: [
        "[]", "{\"d\":3}", "{\"d\":[[\"x\"]]}", "{\"m\":[[\"x\",0,0,0]]}", "{\"i\":[[1,0,0]]}", "not json",
    ])
    func malformed(_ text: String) {
        #expect(throws: (any Error).self) { try StoredChangeset.decode(text) }
    }

    @Test("a list is assembled from its checkpoint and the changes after it; a gap is an error")
    func assemble() throws {
        var random = SeededRandom(seed: 42)
        var snapshots = [Self.randomSnapshot(&random)]
        var changes: [StoredChange] = []
        for version in 2...12 {
            let next = Self.randomSnapshot(&random)
            changes.append(StoredChange(event: StoredEvent(version: version, name: "changeset", data: "{}"),
                                        changeset: StoredChangeset.encode(Changeset(from: snapshots.last!, to: next))))
            snapshots.append(next)
        }
        let base = StoredList.json(StoredList.sections(of: snapshots[4]))  // the checkpoint at version 5
        let list = try StoredList.assemble(demo: "d", version: 12, epoch: "e", state: "{}", baseVersion: 5, base: base, changes: changes)
        #expect(try list.snapshot() == snapshots[11])
        #expect(list.events.map(\.version) == Array(2...12), "every consecutive change is replayable")
        var gap = changes
        gap.remove(at: 7)  // version 9
        #expect(throws: StoredListError.self) {
            try StoredList.assemble(demo: "d", version: 12, epoch: "e", state: "{}", baseVersion: 5, base: base, changes: gap)
        }
    }

    @Test("a derived list is assembled from its state only: its checkpoint and changes are not read")
    func assembleDerived() throws {
        let change = StoredChange(event: StoredEvent(version: 3, name: "changeset", data: "{}"), changeset: "not a changeset")
        let list = try StoredList.assemble(demo: "mountains", version: 7, epoch: "e", state: #"{"query":"k"}"#, baseVersion: 2,
                                           base: "not json either", changes: [change], derived: true)
        #expect(list == StoredList(demo: "mountains", version: 7, epoch: "e", sections: [], state: ["query": "k"], events: [], derived: true))
    }
}
