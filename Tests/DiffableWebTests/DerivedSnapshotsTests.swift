import DiffableDataSources
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The snapshots a derived list's states derive, shared by every session (Mountains: a query).
@Suite("Derived lists: shared steps between states")
struct DerivedSnapshotsTests {
    static func search(_ catalog: MountainCatalog, _ query: String) -> Mountains { Mountains(catalog: catalog, query: query) }

    @Test("a step is shared while the list shows the old state's items; not from anything else; made again when the items were")
    func steps() throws {
        let catalog = try MountainCatalog.bundled()
        let cache = DerivedSnapshots<Mountains>(resultLimit: 3)
        let (from, to) = (Self.search(catalog, "ka"), Self.search(catalog, "kan"))
        let ka = cache.snapshot(of: from)
        let step = try #require(cache.transition(from: from, to: to, current: ka))
        #expect(step.from.isIdentical(to: ka) && step.to.itemIdentifiers == cache.snapshot(of: to).itemIdentifiers)
        #expect(step.to.itemIdentifiers == to.derivedSnapshot().itemIdentifiers)
        #expect(cache.transition(from: from, to: to, current: ka) === step, "made once")
        var changed = ka
        try changed.deleteItems([try #require(ka.itemIdentifiers.first)])
        #expect(cache.transition(from: from, to: to, current: changed) == nil, "a list a script changed is diffed")
        // Three more states fill the table of results: "ka" is derived again, a new snapshot.
        for query in ["x", "y", "z"] { _ = cache.snapshot(of: Self.search(catalog, query)) }
        let rebuilt = cache.snapshot(of: from)
        #expect(rebuilt == ka && !rebuilt.isIdentical(to: ka))
        let again = try #require(cache.transition(from: from, to: to, current: rebuilt))
        #expect(again !== step && again.from.isIdentical(to: rebuilt))
        #expect(again.changeset.itemDeletions.map(\.id) == step.changeset.itemDeletions.map(\.id) && again.changeset.itemInsertions.map(\.id) == step.changeset.itemInsertions.map(\.id))
    }

    static let catalog = MountainCatalog(mountains: [Mountain(id: "1", name: "Kangchenjunga", height: 8586),
                                                     Mountain(id: "2", name: "Kamet", height: 7756),
                                                     Mountain(id: "3", name: "Makalu", height: 8485)])

    @Test("100,000 unique no-match states leave the cache within its bounds, and a step typed all along stays shared")
    func uniqueStates() throws {
        let cache = DerivedSnapshots<Mountains>()
        let (from, to) = (Self.search(Self.catalog, "ka"), Self.search(Self.catalog, "kan"))
        let ka = cache.snapshot(of: from)
        let step = try #require(cache.transition(from: from, to: to, current: ka))
        var previous = Self.search(Self.catalog, "")
        for index in 0..<100_000 {
            // A session typing a query nobody else types: each step is between two empty results.
            let next = Self.search(Self.catalog, "zz\(index)")
            _ = cache.transition(from: previous, to: next, current: cache.snapshot(of: previous))
            previous = next
            if index % 1_000 == 0 {  // and the common step, typed by others meanwhile
                #expect(cache.transition(from: from, to: to, current: ka) === step)
            }
        }
        #expect(cache.keptSteps <= cache.stepLimit, "\(cache.keptSteps) steps kept")
        #expect(cache.keptResults <= cache.resultLimit, "\(cache.keptResults) results kept")
        #expect(cache.transition(from: from, to: to, current: ka) === step, "the shared step was never dropped")
    }
}
