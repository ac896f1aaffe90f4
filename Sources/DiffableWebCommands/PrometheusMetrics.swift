import CoreMetrics
import DiffableWeb
import MicroHTTP
import Prometheus

/// The executables' metrics backend: swift-metrics with swift-prometheus, bootstrapped once, in
/// `main` (the library bootstraps nothing: an app that embeds it brings its own backend).
public enum PrometheusMetrics {
    /// Bootstraps swift-metrics with a Prometheus registry whose families carry the help texts
    /// and buckets of `catalog`, and returns the registry's text exposition (for
    /// ``WebConfiguration/metricsExposition``: `GET /metrics`). Call it once, before the
    /// server starts (handles made earlier stay no-ops).
    public static func bootstrap(catalog: [MetricInfo] = WebMetrics.catalog) -> @Sendable () -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(DescribedFactory(registry: registry, catalog: catalog))
        return { registry.emitToBuffer() }
    }
}

/// swift-prometheus' registry as a swift-metrics factory, with each family's help text and
/// buckets from a catalog (its own factory gives every family an empty help text).
struct DescribedFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    let catalog: [String: MetricInfo]

    init(registry: PrometheusCollectorRegistry, catalog: [MetricInfo]) {
        self.registry = registry
        self.catalog = Dictionary(catalog.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The family's name with its help text (none for a family not in the catalog).
    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: catalog[label]?.help ?? "")
    }

    private func buckets(_ label: String) -> [Double] {
        guard let buckets = catalog[label]?.buckets, !buckets.isEmpty else { return MetricInfo.durationBuckets }
        return buckets
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets(label))
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let buckets = buckets(label).map { Duration.nanoseconds(Int64(($0 * 1e9).rounded())) }
        return registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
