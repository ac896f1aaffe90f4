/// Every route the server answers, as templates (`/api/sessions/{id}`): a request's
/// `http_route` in its metrics and log line. Built from the same tables the router and the
/// OpenAPI document are checked against (``APIRoutes``), plus the pages'. A path that matches
/// none is `{static}` when it may be a file (GET or HEAD), else `unmatched`: the label's values
/// are this bounded set, whatever paths clients send.
struct RouteTemplates: Sendable {
    /// The pages' routes (the API's are ``APIRoutes/all``).
    static let pages = [
        "/", "/healthz", "/healthz/memory", "/metrics", "/__test/drop-streams",
        "/demos/{demo}", "/demos/{demo}/events", "/demos/{demo}/viewport", "/demos/{demo}/measure",
        "/demos/{demo}/actions", "/demos/{demo}/actions/{action}", "/demos/{demo}/assets/{asset}",
    ]

    private struct Template: Sendable {
        let text: String
        /// Each segment, `nil` for a parameter.
        let segments: [Substring?]
    }

    /// By segment count: the templates of that many segments, in order.
    private let bySegments: [Int: [Template]]

    init(_ templates: [String] = RouteTemplates.pages + APIRoutes.all.map(\.path)) {
        var bySegments: [Int: [Template]] = [:]
        var seen = Set<String>()
        for text in templates where seen.insert(text).inserted {
            let segments = text.split(separator: "/").map { $0.first == "{" ? nil : $0 }
            bySegments[segments.count, default: []].append(Template(text: text, segments: segments))
        }
        self.bySegments = bySegments
    }

    /// The template `rawPath` (without its query) matches; a literal segment beats a parameter
    /// (`/demos/{demo}/actions` before `/demos/{demo}/{…}`): templates are tried in order and
    /// literal segments compare exactly.
    /// - Complexity: O(templates of the path's segment count · segments).
    func template(method: HTTPMethodName, rawPath: String) -> String {
        let segments = rawPath.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
        for template in bySegments[segments.count] ?? [] {
            var matches = true
            for (index, segment) in template.segments.enumerated() {
                if let segment, segment != segments[index] { matches = false; break }
            }
            if matches { return template.text }
        }
        return method == "GET" || method == "HEAD" ? "{static}" : "unmatched"
    }

    typealias HTTPMethodName = String
}
