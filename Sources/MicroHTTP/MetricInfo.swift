/// What one metric family is, for a backend that wants more than swift-metrics' label and
/// dimensions carry: its help text and, for a histogram, its buckets. A module that records
/// metrics lists its families (``HTTPServerMetrics/catalog``); an executable that bootstraps a
/// Prometheus backend gives it these (so that `# HELP` lines say what each family counts).
public struct MetricInfo: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case counter, gauge, histogram
    }

    /// The name in Prometheus form (`http_server_request_duration_seconds`).
    public var name: String
    public var kind: Kind
    /// One sentence: what it counts.
    public var help: String
    /// The label names its samples carry (a histogram's `le` aside).
    public var labels: [String]
    /// A histogram's upper bounds, in its unit (seconds for a duration).
    public var buckets: [Double]

    public init(_ name: String, _ kind: Kind, labels: [String] = [], buckets: [Double] = [], help: String) {
        self.name = name
        self.kind = kind
        self.help = help
        self.labels = labels
        self.buckets = buckets
    }

    /// Durations from half a millisecond (a keystroke's request) to ten seconds, in seconds.
    public static let durationBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
}
