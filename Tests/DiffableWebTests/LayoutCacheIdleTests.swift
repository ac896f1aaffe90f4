import CompositionalLayout
import DiffableDataSources
import Testing
@testable import DiffableWeb

/// An idle list keeps no layouts: each heartbeat drops those nobody asked for since the one
/// before (issue 22: the cost of an idle session), and the next use lays the list out again.
@Suite("Web: an idle list's layout cache")
struct LayoutCacheIdleTests {
    private static func make(_ snapshot: Snapshot<String, String>, _ container: LayoutContainer) -> ListLayout {
        ListLayout(snapshot: snapshot, layout: CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .plain), layoutEnvironment: environment)
        }, container: container)
    }

    private static let snapshot: Snapshot<String, String> = {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(["a"])
        try? snapshot.appendItems((0..<100).map { "a\($0)" }, toSection: "a")
        return snapshot
    }()

    @Test("layouts unused for a whole heartbeat interval are dropped; a layout asked for in between keeps them")
    func dropsIdleLayouts() {
        let cache = LayoutCache()
        let phone = LayoutContainer(width: 390, height: 844), desk = LayoutContainer(width: 1024, height: 768)
        var made = 0
        for container in [phone, desk] {
            _ = cache.layout(version: 1, snapshot: Self.snapshot, container: container, measuredGeneration: 0) {
                made += 1
                return Self.make(Self.snapshot, container)
            }
        }
        #expect(cache.count == 2)
        #expect(cache.dropIfIdle() == 0, "used since the last heartbeat: kept")
        #expect(cache.count == 2)
        // Asked for again before the next heartbeat: still in use, and cached (not made again).
        _ = cache.layout(version: 1, snapshot: Self.snapshot, container: phone, measuredGeneration: 0) {
            made += 1
            return Self.make(Self.snapshot, phone)
        }
        #expect(made == 2)
        #expect(cache.dropIfIdle() == 0)
        #expect(cache.dropIfIdle() == 2, "a whole interval unused: dropped")
        #expect(cache.count == 0)
        // The next use lays it out again, and keeps it.
        let again = cache.layout(version: 1, snapshot: Self.snapshot, container: phone, measuredGeneration: 0) {
            made += 1
            return Self.make(Self.snapshot, phone)
        }
        #expect(made == 3)
        #expect(again.result == Self.make(Self.snapshot, phone).result)
        #expect(cache.count == 1)
    }

    /// A round visits the caches that hold layouts, not every list: a cache joins when it
    /// comes to hold one, and leaves once a round left it empty, or once its list is gone.
    @Test("the rounds visit only caches that hold layouts: a cache joins with its first layout, leaves once dropped or gone")
    func roundsVisitHeldCaches() {
        let held = HeldLayouts()
        let phone = LayoutContainer(width: 390, height: 844)
        let lay = { (cache: LayoutCache, version: Int) in
            _ = cache.layout(version: version, snapshot: Self.snapshot, container: phone, measuredGeneration: 0) { Self.make(Self.snapshot, phone) }
        }
        let idle = LayoutCache(held: held), busy = LayoutCache(held: held), never = LayoutCache(held: held)
        #expect(held.count == 0, "no layouts yet: nothing to visit")
        lay(idle, 1)
        lay(busy, 1)
        lay(busy, 2)  // a new version: the cache went empty and filled again under one lock
        #expect(held.count == 2 && never.count == 0)
        #expect(held.dropIdle() == 0, "used since the last round: kept")
        lay(busy, 3)
        #expect(held.dropIdle() == 1, "the idle cache's layout dropped; the busy one kept")
        #expect(idle.count == 0 && busy.count == 1)
        #expect(held.count == 1, "an emptied cache is no longer visited")
        #expect(held.dropIdle() == 1 && held.count == 0)
        lay(idle, 4)
        #expect(held.count == 1, "laid out again: visited again")
        // A list that is gone takes its cache, and its layouts, with it.
        do {
            let gone = LayoutCache(held: held)
            lay(gone, 1)
            #expect(held.count == 2)
        }
        #expect(held.dropIdle() == 0, "the idle cache was used since the last round")
        #expect(held.count == 1, "the cache of a list that is gone is forgotten")
    }
}
