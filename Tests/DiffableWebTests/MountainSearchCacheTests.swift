import DiffableDataSources
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

@Suite("Mountains: shared search steps")
struct MountainSearchCacheTests {
    @Test("a step is shared while the list shows the old query's results; not from anything else; made again when the results were")
    func steps() throws {
        let cache = MountainSearchCache(catalog: try MountainCatalog.bundled(), limit: 3)
        let ka = cache.snapshot(for: "ka", section: "main")
        let step = try #require(cache.transition(from: "ka", to: "kan", section: "main", current: ka))
        #expect(step.from.isIdentical(to: ka) && step.to.itemIdentifiers == cache.snapshot(for: "kan", section: "main").itemIdentifiers)
        #expect(cache.transition(from: "ka", to: "kan", section: "main", current: ka) === step, "made once")
        var changed = ka
        try changed.deleteItems([try #require(ka.itemIdentifiers.first)])
        #expect(cache.transition(from: "ka", to: "kan", section: "main", current: changed) == nil, "a list a script changed is diffed")
        // Three more queries fill the table of results: "ka" is built again, a new snapshot.
        for query in ["x", "y", "z"] { _ = cache.snapshot(for: query, section: "main") }
        let rebuilt = cache.snapshot(for: "ka", section: "main")
        #expect(rebuilt == ka && !rebuilt.isIdentical(to: ka))
        let again = try #require(cache.transition(from: "ka", to: "kan", section: "main", current: rebuilt))
        #expect(again !== step && again.from.isIdentical(to: rebuilt))
        #expect(again.changeset.itemDeletions.map(\.id) == step.changeset.itemDeletions.map(\.id) && again.changeset.itemInsertions.map(\.id) == step.changeset.itemInsertions.map(\.id))
    }
}

@Suite("Mountains: the search cache is bounded")
struct MountainSearchCacheBoundTests {
    static let catalog = MountainCatalog(mountains: [Mountain(id: "1", name: "Kangchenjunga", height: 8586),
                                                     Mountain(id: "2", name: "Kamet", height: 7756),
                                                     Mountain(id: "3", name: "Makalu", height: 8485)])

    @Test("100,000 unique no-match queries leave the cache within its bounds, and a step typed all along stays shared")
    func uniqueQueries() throws {
        let cache = MountainSearchCache(catalog: Self.catalog)
        let ka = cache.snapshot(for: "ka", section: "main")
        let step = try #require(cache.transition(from: "ka", to: "kan", section: "main", current: ka))
        var previous = ""
        for index in 0..<100_000 {
            // A session typing a query nobody else types: each step is between two empty results.
            let query = "zz\(index)"
            _ = cache.transition(from: previous, to: query, section: "main", current: cache.snapshot(for: previous, section: "main"))
            previous = query
            if index % 1_000 == 0 {  // and the common step, typed by others meanwhile
                #expect(cache.transition(from: "ka", to: "kan", section: "main", current: ka) === step)
            }
        }
        #expect(cache.keptSteps <= cache.stepLimit, "\(cache.keptSteps) steps kept")
        #expect(cache.keptResults <= cache.limit, "\(cache.keptResults) results kept")
        #expect(cache.transition(from: "ka", to: "kan", section: "main", current: ka) === step, "the shared step was never dropped")
    }
}
