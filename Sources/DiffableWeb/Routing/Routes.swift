/// Every route the server answers, declared once: its path template, the methods it allows (in
/// the order a 405's `Allow` names them), the OpenAPI operation each documented method is, and
/// what answers it. The router dispatches by it (``WebApp/route(_:)``), ``APIRoutes`` and
/// ``RouteTemplates`` are read off it, and a test holds openapi.json's paths, methods and
/// operationIds to it, both ways.
///
/// A route's path starts with its scope's prefix: what the router looks up before it matches the
/// rest, in this order, so that a path under a session that does not exist is `404
/// unknown_session` whatever follows, one under a list that does not exist `404 unknown_demo`.
///
/// ```swift
/// Route("/api/sessions/{id}/demos/{demo}/snapshot", ["GET", "HEAD", "PUT"], .list(.snapshot),
///       operations: ["GET": "getSnapshot", "PUT": "putSnapshot"])
/// ```
struct Route: Sendable {
    /// What answers a route, by scope (each scope's router switches over its own).
    enum Target: Sendable, Equatable {
        /// A path of its own (`/`, `/openapi.json`…).
        case root(Root)
        /// Under `/api`, before any session is looked up.
        case api(API)
        /// `/api/sessions/{id}`: the session, looked up.
        case session
        /// Under `/api/sessions/{id}/demos/{demo}`: the session, the list's descriptor and the
        /// session's list, looked up (the list made if it was not yet).
        case list(List)
        /// Under `/demos/{demo}`: the list's descriptor, looked up.
        case page(Page)
        /// Answered on the server's own thread before any routing (``WebApp/immediateResponse(_:)``).
        case immediate
    }

    enum Root: Sendable, Equatable { case index, openAPI, health, metrics, dropStreams }
    enum API: Sendable, Equatable { case demos, createSession }
    enum List: Sendable, Equatable { case snapshot, operations, layout, actions, action, selection, swipeActions, menu, editing, deleteItem, detailAccessory, events }
    enum Page: Sendable, Equatable { case page, events, viewport, measure, actions, action, select, swipe, menu, editing, deleteItem, detailAccessory, asset }

    enum Scope: Sendable, Equatable {
        case root, api, session, list, page, immediate

        /// The segments before a route's own (`{…}` for a parameter).
        var prefix: [String] {
            switch self {
            case .root, .immediate: []
            case .api: ["api"]
            case .session: ["api", "sessions", "{id}"]
            case .list: ["api", "sessions", "{id}", "demos", "{demo}"]
            case .page: ["demos", "{demo}"]
            }
        }

        /// Whether a path of `segments` is under this scope: as long as its prefix at least, with
        /// the prefix's literal segments (a parameter takes any).
        func isPrefix(of segments: [String]) -> Bool {
            segments.count >= prefix.count && zip(prefix, segments).allSatisfy { $0.first == "{" || $0 == $1 }
        }
    }

    /// The path template (`/api/sessions/{id}/demos/{demo}/snapshot`).
    let path: String
    let methods: [String]
    /// The OpenAPI operationId of each method openapi.json documents (none for a page).
    let operations: [String: String]
    let target: Target
    /// Answered only when the app has test hooks (``WebConfiguration/testHooks``); otherwise
    /// the path is no route.
    let testOnly: Bool

    init(_ path: String, _ methods: [String], _ target: Target, operations: [String: String] = [:], testOnly: Bool = false) {
        self.path = path
        self.methods = methods
        self.target = target
        self.operations = operations
        self.testOnly = testOnly
    }

    var scope: Scope {
        switch target {
        case .root: .root
        case .api: .api
        case .session: .session
        case .list: .list
        case .page: .page
        case .immediate: .immediate
        }
    }

    /// The path's segments (`{…}` for a parameter).
    var segments: [String] { path.split(separator: "/").map(String.init) }

    /// The segments after the scope's prefix.
    var tail: ArraySlice<String> { segments.dropFirst(scope.prefix.count) }

    /// The documented methods and their operations, in the order of ``methods``.
    var documented: [(method: String, operationID: String)] {
        methods.compactMap { method in operations[method].map { (method, $0) } }
    }
}

enum Routes {
    /// The table.
    static let all: [Route] = [
        Route("/", ["GET", "HEAD"], .root(.index)),
        Route("/openapi.json", ["GET", "HEAD"], .root(.openAPI), operations: ["GET": "getOpenAPI"]),
        Route("/healthz", ["GET", "HEAD"], .root(.health)),
        Route("/healthz/memory", ["GET", "HEAD"], .immediate),
        Route("/metrics", ["GET", "HEAD"], .root(.metrics)),
        Route("/__test/drop-streams", ["POST"], .root(.dropStreams), testOnly: true),

        Route("/api/demos", ["GET", "HEAD"], .api(.demos), operations: ["GET": "listDemos"]),
        Route("/api/sessions", ["POST"], .api(.createSession), operations: ["POST": "createSession"]),
        Route("/api/sessions/{id}", ["GET", "HEAD"], .session, operations: ["GET": "getSession"]),
        Route("/api/sessions/{id}/demos/{demo}/snapshot", ["GET", "HEAD", "PUT"], .list(.snapshot),
              operations: ["GET": "getSnapshot", "PUT": "putSnapshot"]),
        Route("/api/sessions/{id}/demos/{demo}/operations", ["POST"], .list(.operations), operations: ["POST": "applyOperations"]),
        Route("/api/sessions/{id}/demos/{demo}/layout", ["GET", "HEAD"], .list(.layout), operations: ["GET": "getLayout"]),
        Route("/api/sessions/{id}/demos/{demo}/actions", ["GET", "HEAD"], .list(.actions), operations: ["GET": "listActions"]),
        Route("/api/sessions/{id}/demos/{demo}/actions/{action}", ["POST"], .list(.action), operations: ["POST": "runAction"]),
        Route("/api/sessions/{id}/demos/{demo}/selection", ["GET", "HEAD", "POST"], .list(.selection),
              operations: ["GET": "getSelection", "POST": "changeSelection"]),
        Route("/api/sessions/{id}/demos/{demo}/swipe-actions", ["GET", "HEAD", "POST"], .list(.swipeActions),
              operations: ["GET": "listSwipeActions", "POST": "performSwipeAction"]),
        Route("/api/sessions/{id}/demos/{demo}/menu", ["GET", "HEAD", "POST"], .list(.menu),
              operations: ["GET": "getContextMenu", "POST": "performMenuAction"]),
        Route("/api/sessions/{id}/demos/{demo}/editing", ["GET", "HEAD", "POST"], .list(.editing),
              operations: ["GET": "getEditing", "POST": "setEditing"]),
        Route("/api/sessions/{id}/demos/{demo}/delete-item", ["POST"], .list(.deleteItem), operations: ["POST": "deleteItem"]),
        Route("/api/sessions/{id}/demos/{demo}/detail-accessory", ["POST"], .list(.detailAccessory), operations: ["POST": "tapDetailAccessory"]),
        Route("/api/sessions/{id}/demos/{demo}/events", ["GET"], .list(.events), operations: ["GET": "followEvents"]),

        Route("/demos/{demo}", ["GET", "HEAD"], .page(.page)),
        Route("/demos/{demo}/events", ["GET"], .page(.events)),
        Route("/demos/{demo}/viewport", ["POST"], .page(.viewport)),
        Route("/demos/{demo}/measure", ["POST"], .page(.measure)),
        Route("/demos/{demo}/actions", ["GET", "HEAD"], .page(.actions)),
        Route("/demos/{demo}/actions/{action}", ["POST"], .page(.action)),
        Route("/demos/{demo}/select", ["POST"], .page(.select)),
        Route("/demos/{demo}/swipe", ["GET", "HEAD", "POST"], .page(.swipe)),
        Route("/demos/{demo}/menu", ["GET", "HEAD", "POST"], .page(.menu)),
        Route("/demos/{demo}/editing", ["POST"], .page(.editing)),
        Route("/demos/{demo}/delete-item", ["POST"], .page(.deleteItem)),
        Route("/demos/{demo}/detail-accessory", ["POST"], .page(.detailAccessory)),
        Route("/demos/{demo}/assets/{asset}", ["GET", "HEAD"], .page(.asset)),
    ]

    /// A route of a scope that a path's segments (after the scope's prefix) match, and the values
    /// of the route's own parameters.
    struct Match: Sendable {
        let route: Route
        /// The values of the route's own parameters (after its scope's prefix), by name.
        let parameters: [String: String]

        /// The value of the parameter `{name}`; empty if the route has none of that name (the
        /// handlers ask for their route's own: the route tests request every route).
        func parameter(_ name: String) -> String { parameters[name] ?? "" }
    }

    /// The routes of each scope, their tails ready to match.
    private static let byScope: [Route.Scope: [(route: Route, tail: [String])]] =
        Dictionary(grouping: all.map { ($0, Array($0.tail)) }, by: \.0.scope)

    /// The route of `scope` whose tail `segments` match (a literal segment exactly, a parameter
    /// any), `testHooks` saying whether test-only routes count.
    /// - Complexity: O(routes of the scope · segments).
    static func match(_ scope: Route.Scope, _ segments: some Collection<String>, testHooks: Bool) -> Match? {
        for (route, tail) in byScope[scope] ?? [] where tail.count == segments.count && (testHooks || !route.testOnly) {
            var parameters: [String: String] = [:]
            var matches = true
            for (pattern, segment) in zip(tail, segments) {
                if pattern.first == "{" {
                    parameters[String(pattern.dropFirst().dropLast())] = segment
                } else if pattern != segment {
                    matches = false
                    break
                }
            }
            if matches { return Match(route: route, parameters: parameters) }
        }
        return nil
    }

    /// The path of the route whose method is the operation `operationID`.
    static func path(of operationID: String) -> String? {
        all.first { $0.operations.values.contains(operationID) }?.path
    }
}
