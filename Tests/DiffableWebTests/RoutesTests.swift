import Foundation
import MicroHTTP
@testable import DiffableWeb
@testable import DiffableWebDemos
import Testing

/// The route table (``Routes``) is the one declaration of every route: the router dispatches by
/// it, the metrics' templates and the API's list are read off it, and openapi.json is held to it.
@Suite("Routes: declared once")
struct RoutesTests {
    @Test("each route's path is under its scope's prefix, once; its documented methods are allowed")
    func wellFormed() {
        var paths = Set<String>()
        for route in Routes.all {
            #expect(paths.insert(route.path).inserted, "\(route.path) twice")
            #expect(route.scope.isPrefix(of: route.segments), "\(route.path) under \(route.scope)")
            #expect(!route.methods.isEmpty && Set(route.methods).count == route.methods.count)
            #expect(Set(route.operations.keys).isSubset(of: route.methods), "\(route.path)")
        }
        let operations = Routes.all.flatMap { $0.operations.values }
        #expect(Set(operations).count == operations.count, "operationIds are unique")
        #expect(Routes.path(of: "runAction") == "/api/sessions/{id}/demos/{demo}/actions/{action}")
        #expect(Routes.path(of: "getSnapshot") == "/api/sessions/{id}/demos/{demo}/snapshot")
    }

    @Test("openapi.json documents exactly the table's methods, paths and operationIds")
    func documentIsTheTable() throws {
        let paths = try #require(try APIContractTests.document()["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, item) in paths {
            for method in ["get", "put", "post", "delete", "patch", "head", "options"] {
                guard let operation = item[method] as? [String: Any] else { continue }
                documented.insert("\(method.uppercased()) \(path) \(operation["operationId"] as? String ?? "?")")
            }
        }
        let table = Set(Routes.all.flatMap { route in route.documented.map { "\($0.method) \(route.path) \($0.operationID)" } })
        #expect(documented == table)
    }

    @Test("the API's list and the metrics' templates are the table's")
    func derived() {
        #expect(Set(APIRoutes.all.map { "\($0.method) \($0.path)" })
                == Set(Routes.all.flatMap { route in route.documented.map { "\($0.method) \(route.path)" } }))
        #expect(Set(RouteTemplates.pages + APIRoutes.all.map(\.path)) == Set(Routes.all.map(\.path)))
        for route in Routes.all {
            let concrete = route.path.replacingOccurrences(of: #"\{[a-z]+\}"#, with: "x7f3a9c2b", options: .regularExpression)
            #expect(WebApp.routeTemplate(method: .get, rawPath: concrete) == route.path)
        }
    }

    /// The table's path with `{id}` a session's, `{demo}` numbers, `{action}` append, `{asset}` a name.
    static func concrete(_ path: String, session: String) -> String {
        path.replacingOccurrences(of: "{id}", with: session).replacingOccurrences(of: "{demo}", with: "numbers")
            .replacingOccurrences(of: "{action}", with: "append").replacingOccurrences(of: "{asset}", with: "p001.svg")
    }

    @Test("every method a route does not allow is 405, its Allow the table's methods")
    func methodNotAllowed() async throws {
        let app = try await makeApp()
        let session = try #require(await app.handle(Request(method: .post, target: "/api/sessions")).json?["id"] as? String)
        for route in Routes.all where route.target != .immediate {
            for method in ["GET", "PUT", "POST", "DELETE", "PATCH"] where !route.methods.contains(method) {
                let response = await app.handle(Request(method: HTTPMethod(method), target: Self.concrete(route.path, session: session)))
                #expect(response.status == .methodNotAllowed, "\(method) \(route.path)")
                #expect(response.headers["Allow"] == route.methods.joined(separator: ", "), "\(method) \(route.path)")
                #expect(response.json?["message"] as? String
                        == "\(method) is not allowed here; use \(route.methods.joined(separator: " or "))")
            }
        }
    }

    @Test("a path that is no route is refused by the first thing it gets wrong, as before the table",
          arguments: [
              ("/api/nope", "not_found"), ("/api", "not_found"), ("/api/sessions/0123/x", "unknown_session"),
              ("/api/sessions/{id}/nope", "not_found"), ("/api/sessions/{id}/demos/nope/snapshot", "unknown_demo"),
              ("/api/sessions/{id}/demos/numbers/nope", "not_found"), ("/api/sessions/{id}/demos/numbers/actions/a/b", "not_found"),
              ("/demos/nope/events", "unknown_demo"), ("/demos/numbers/nope", "not_found"), ("/__test/nope", "not_found"),
          ])
    func unmatched(path: String, code: String) async throws {
        let app = try await makeApp()
        let session = try #require(await app.handle(Request(method: .post, target: "/api/sessions")).json?["id"] as? String)
        for method in [HTTPMethod.get, .post, .delete] {
            let response = await app.handle(Request(method: method, target: Self.concrete(path, session: session)))
            #expect(response.status == .notFound, "\(method) \(path)")
            #expect(response.json?["error"] as? String == code, "\(method) \(path)")
        }
    }

    @Test("a test-only route is no route without the test hooks; the immediate ones are answered before routing")
    func conditional() async throws {
        let hooked = try await makeApp()
        #expect(await hooked.handle(Request(method: .post, target: "/__test/drop-streams")).status == .noContent)
        let plain = try await makeApp { $0.testHooks = false }
        #expect(await plain.handle(Request(method: .post, target: "/__test/drop-streams")).status == .notFound)
        #expect(await plain.handle(Request(method: .post, target: "/healthz/memory")).status == .notFound)
        #expect(plain.immediateResponse(Request(target: "/healthz/memory"))?.status == .ok)
    }
}
