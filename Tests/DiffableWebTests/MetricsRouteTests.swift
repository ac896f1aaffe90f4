import Foundation
import MicroHTTP
@testable import DiffableWeb
import SeededRandom
import Synchronization
import Testing

/// `http_route`: every route the server answers maps to its template, and any path a client
/// sends maps into that bounded set; `/metrics` serves the backend's exposition.
@Suite("Route templates and /metrics")
struct MetricsRouteTests {
    /// A template with its parameters filled in (`{id}` → a value of the same kind).
    private static func concrete(_ template: String) -> String {
        template.replacingOccurrences(of: #"\{[a-z]+\}"#, with: "x7f3a9c2b", options: .regularExpression)
    }

    @Test("every API and page route maps to its own template", arguments: APIRoutes.all.map(\.path) + RouteTemplates.pages)
    func ownTemplate(template: String) {
        #expect(WebApp.routeTemplate(method: .get, rawPath: Self.concrete(template)) == template)
        #expect(WebApp.routeTemplate(method: .post, rawPath: Self.concrete(template)) == template)
    }

    @Test("a literal segment beats a parameter, and a query does not reach the template")
    func literalsFirst() {
        #expect(WebApp.routeTemplate(method: .get, rawPath: "/demos/mountains/actions") == "/demos/{demo}/actions")
        #expect(WebApp.routeTemplate(method: .post, rawPath: "/demos/mountains/actions/search") == "/demos/{demo}/actions/{action}")
        #expect(WebApp.routeTemplate(method: .get, rawPath: "/") == "/")
        #expect(WebApp.routeTemplate(method: .get, rawPath: "/app.js") == "{static}")
        #expect(WebApp.routeTemplate(method: .post, rawPath: "/app.js") == "unmatched")
    }

    @Test("whatever paths clients send, the labels stay in the bounded set", arguments: [1, 2, 3])
    func bounded(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let allowed = Set(APIRoutes.all.map(\.path) + RouteTemplates.pages + ["{static}", "unmatched"])
        let words = ["api", "sessions", "demos", "events", "x", "%2F", "..", "actions", "healthz", "metrics", String(repeating: "z", count: 300)]
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...7, using: &random)
            let path = "/" + (0..<count).map { _ in words.randomElement(using: &random) ?? "x" }.joined(separator: "/")
            let method: HTTPMethod = Bool.random(using: &random) ? .get : .post
            seen.insert(WebApp.routeTemplate(method: method, rawPath: path))
        }
        #expect(seen.isSubset(of: allowed), "labels outside the set: \(seen.subtracting(allowed))")
    }

    @Test("/metrics serves the exposition it is given, fresh each scrape, and is 404 without one")
    func endpoint() async throws {
        let scrapes = ScrapeCount()
        let app = try await makeApp { $0.metricsExposition = { Array("# scrape \(scrapes.next())\n".utf8) } }
        let first = await app.handle(Request(target: "/metrics"))
        #expect(first.status == .ok)
        #expect(first.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(first.text == "# scrape 1\n")
        #expect(await app.handle(Request(target: "/metrics")).text == "# scrape 2\n")
        // Answered off the list path too (libmicrohttpd's thread), like /healthz.
        #expect(app.immediateResponse(Request(target: "/metrics"))?.text == "# scrape 3\n")
        #expect(await app.handle(Request(method: .post, target: "/metrics")).status == .methodNotAllowed)

        let bare = try await makeApp()
        #expect(await bare.handle(Request(target: "/metrics")).status == .notFound)
    }
}

/// Counts scrapes across threads.
private final class ScrapeCount: Sendable {
    private let count = Atomic<Int>(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
