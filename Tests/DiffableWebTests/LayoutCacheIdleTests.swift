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
}
