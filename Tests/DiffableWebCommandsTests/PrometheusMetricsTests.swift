import CoreMetrics
@testable import DiffableWebCommands
import DiffableWeb
import Prometheus
import Testing

/// The executables' Prometheus backend: each family the server records gets its help text and
/// buckets from the catalog.
@Suite("Prometheus backend")
struct PrometheusMetricsTests {
    @Test("the catalog names each family once, in Prometheus form, with a help text")
    func catalog() {
        let names = WebMetrics.catalog.map(\.name)
        #expect(Set(names).count == names.count)
        for info in WebMetrics.catalog {
            #expect(info.name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(info.name)")
            #expect(!info.help.isEmpty, "\(info.name)")
            #expect((info.kind == .counter) == info.name.hasSuffix("_total"), "\(info.name)")
            #expect(info.kind != .histogram || info.buckets == info.buckets.sorted(), "\(info.name)")
        }
    }

    @Test("families carry # HELP and # TYPE from the catalog, histograms the catalog's buckets")
    func exposition() {
        let registry = PrometheusCollectorRegistry()
        let factory = DescribedFactory(registry: registry, catalog: WebMetrics.catalog)
        let writes = Counter(label: "diffableweb_list_writes_total", dimensions: [("list", "numbers")], factory: factory)
        writes.increment(by: 3)
        let commit = CoreMetrics.Timer(label: "diffableweb_store_commit_duration_seconds", dimensions: [("store", "sqlite")], factory: factory)
        commit.recordNanoseconds(300_000)
        let batch = Recorder(label: "diffableweb_store_commit_batch_size", dimensions: [("store", "sqlite")], aggregate: true, factory: factory)
        batch.record(5)
        let open = Meter(label: "diffableweb_event_streams_open", dimensions: [("encoding", "gzip")], factory: factory)
        open.increment()
        let unknown = Counter(label: "someone_elses_total", factory: factory)
        unknown.increment()

        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(text.contains("# HELP diffableweb_list_writes_total Writes applied to a list"))
        #expect(text.contains("# TYPE diffableweb_list_writes_total counter"))
        #expect(text.contains(#"diffableweb_list_writes_total{list="numbers"} 3"#))
        #expect(text.contains("# TYPE diffableweb_store_commit_duration_seconds histogram"))
        #expect(text.contains(#"diffableweb_store_commit_duration_seconds_bucket{store="sqlite",le="0.00025"} 0"#))
        #expect(text.contains(#"diffableweb_store_commit_duration_seconds_bucket{store="sqlite",le="0.0005"} 1"#))
        #expect(text.contains(#"diffableweb_store_commit_batch_size_bucket{store="sqlite",le="4.0"} 0"#))
        #expect(text.contains(#"diffableweb_store_commit_batch_size_bucket{store="sqlite",le="8.0"} 1"#))
        #expect(text.contains(#"diffableweb_event_streams_open{encoding="gzip"} 1"#))
        // A family of another library's is kept, without a help line.
        #expect(text.contains("someone_elses_total 1"))
        #expect(!text.contains("# HELP someone_elses_total"))
    }
}
