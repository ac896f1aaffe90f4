import DiffableDataSources
import MicroHTTP
import Testing
@testable import DiffableWeb

@Suite("RecentlyUsed and TransitionCache: bounded caches")
struct RecentlyUsedTests {
    @Test("at most entryLimit entries; an entry used again survives a flood of new ones")
    func entries() {
        var cache = RecentlyUsed<Int, String>(entryLimit: 100)
        cache.insert("hot", for: -1)
        for key in 0..<10_000 {
            cache.insert("\(key)", for: key)
            #expect(cache.count <= 100)
            if key % 40 == 0 { #expect(cache.value(for: -1) == "hot") }
        }
        #expect(cache.value(for: -1) == "hot")
        #expect(cache.value(for: 0) == nil && cache.value(for: 9_999) == "9999")
    }

    @Test("at most weightLimit weight; an entry heavier than half of it is kept alone")
    func weight() {
        var cache = RecentlyUsed<Int, Int>(entryLimit: 1_000, weightLimit: 100)
        for key in 0..<1_000 {
            cache.insert(key, for: key, weight: 7)
            #expect(cache.weight <= 100)
        }
        cache.insert(-1, for: -1, weight: 80)
        #expect(cache.value(for: -1) == -1 && cache.weight <= 80 + 50)
        cache.insert(5, for: 5, weight: 1)
        cache.insert(5, for: 5, weight: 2)
        #expect(cache.value(for: 5) == 5 && cache.count <= 3)
    }

    @Test("the transition cache keeps at most 8,192 transitions, however light (empty results)")
    func transitionCacheBound() throws {
        let cache = TransitionCache()
        var empty = Snapshot<String, String>()
        try empty.appendSections(["main"])
        for _ in 0..<20_000 {
            let step = SnapshotTransition(from: empty, to: empty)
            _ = cache.ids(for: step) { SharedEventBytes(Array(#","deleted":[],"inserted":[],"moved":[]"#.utf8)) }
        }
        #expect(cache.count <= 8_192, "\(cache.count) transitions kept")
    }

    @Test("random hex ids: as long as asked, hex digits only, never the same twice")
    func randomHex() {
        for count in [12, 16, 32] {
            let ids = (0..<200).map { _ in RandomHex.digits(count) }
            #expect(ids.allSatisfy { $0.utf8.count == count && $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
            #expect(Set(ids).count == ids.count)
        }
    }
}
