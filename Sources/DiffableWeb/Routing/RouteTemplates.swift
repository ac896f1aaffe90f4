/// Every route the server answers, as templates (`/api/sessions/{id}`): a request's
/// `http_route` in its metrics and log line. Read off the route table the router dispatches by
/// (``Routes``). A path that matches none is `{static}` when it may be a file (GET or HEAD),
/// else `unmatched`: the label's values are this bounded set, whatever paths clients send.
struct RouteTemplates: Sendable {
    /// The routes openapi.json does not document: the pages', the health checks' (the API's
    /// are ``APIRoutes/all``).
    static let pages = Routes.all.filter(\.operations.isEmpty).map(\.path)

    private struct Template: Sendable {
        let text: String
        /// Each segment's bytes, `nil` for a parameter.
        let segments: [[UInt8]?]
    }

    /// By segment count: the templates of that many segments, in order.
    private let bySegments: [[Template]]

    init(_ templates: [String] = Routes.all.map(\.path)) {
        var bySegments: [[Template]] = []
        var seen = Set<String>()
        for text in templates where seen.insert(text).inserted {
            let segments = text.split(separator: "/").map { $0.first == "{" ? nil : Array($0.utf8) }
            while bySegments.count <= segments.count { bySegments.append([]) }
            bySegments[segments.count].append(Template(text: text, segments: segments))
        }
        self.bySegments = bySegments
    }

    /// The template `rawPath` (without its query) matches; templates are tried in order, a
    /// literal segment comparing exactly, so `/demos/{demo}/actions` is not taken for
    /// `/demos/{demo}/{…}`. Reads the path's bytes in place (it runs for every request).
    /// - Complexity: O(templates of the path's segment count · path length).
    func template(method: String, rawPath: String) -> String {
        var path = rawPath
        let matched = path.withUTF8 { bytes -> String? in
            let count = Self.segmentCount(bytes)
            guard count < bySegments.count else { return nil }
            return bySegments[count].first { Self.matches($0, bytes) }?.text
        }
        return matched ?? (method == "GET" || method == "HEAD" ? "{static}" : "unmatched")
    }

    /// Non-empty segments between `/`s.
    private static func segmentCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var inSegment = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                inSegment = false
            } else if !inSegment {
                inSegment = true
                count += 1
            }
        }
        return count
    }

    /// Whether each of the path's segments equals the template's literal one (a parameter
    /// takes any).
    private static func matches(_ template: Template, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var segment = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") { index += 1; continue }
            var end = index
            while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
            if let literal = template.segments[segment], !literal.elementsEqual(bytes[index..<end]) { return false }
            segment += 1
            index = end
        }
        return true
    }
}
