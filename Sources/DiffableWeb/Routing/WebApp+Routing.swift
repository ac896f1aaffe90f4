import Foundation
import MicroHTTP

// One place maps paths to handlers, checks methods (405 with Allow), and turns errors into
// responses: JSON `{"error", "message"}` for scripts, an HTML page for browsers.

extension WebApp {
    /// Handles one request and returns its response once it is complete (its writes saved).
    /// Never throws: every failure becomes a response.
    public func handle(_ request: Request) async -> Response {
        await respond(request).settled
    }

    /// Handles one request for the server: a response, or a promise of one (MicroHTTP's
    /// `ResponsePromise`) that the thread saving the request's writes fulfils (`SaveDeferral`).
    /// Never throws: every failure becomes a response.
    ///
    /// A request that may write is on its way to the store from here (``IncomingWrite``): a
    /// store committing in groups holds the writes before it for it, while it is decoded.
    public func respond(_ request: Request) async -> Response {
        guard request.method != .get && request.method != .head else { return await answer(request) }
        let incoming = store?.announceWrite()
        defer { incoming?.settle() }
        let deferral = SaveDeferral()
        let response = await IncomingWrite.$request.withValue(incoming) {
            await SaveDeferral.$current.withValue(deferral) { await answer(request) }
        }
        let failed: @Sendable (any Error) -> Response = { [self] error in
            // As when the request awaits its save (``LiveList``'s write).
            secured(errorResponse(httpError(for: ListStoreError.saveFailed("\(error)"), request), for: request))
        }
        if let saved = deferral.settledNow() { return saved.map(failed) ?? response }
        let promise = ResponsePromise()
        let saved = deferral.settle { failure in promise.fulfil(failure.map(failed) ?? response) }
        guard let saved else { return .promised(promise) }
        return saved.map(failed) ?? response
    }

    private func answer(_ request: Request) async -> Response {
        do {
            try checkOrigin(request)
            return secured(try await route(request))
        } catch {
            return secured(errorResponse(httpError(for: error, request), for: request))
        }
    }

    /// Every error a route may throw, as the HTTP error it is answered with: the one place
    /// that decides statuses and codes (``errorResponse(_:for:)`` then renders it).
    func httpError(for error: any Error, _ request: Request) -> HTTPError {
        switch error {
        case let error as HTTPError:
            return error
        case let failure as APIFailure:
            return failure.httpError
        case let error as ActionError:
            switch error {
            case .unknownAction: return HTTPError(.notFound, code: error.code, message: error.description)
            case .missingParameter, .invalidParameter: return HTTPError(.badRequest, code: error.code, message: error.description)
            case .snapshot, .unprocessable: return HTTPError(.unprocessableContent, code: error.code, message: error.description)
            }
        case let error as SelectionError:
            switch error {
            case .unknownItems(let items):
                let named = items.prefix(10).map { "“\($0.prefix(80))”" }.joined(separator: ", ")
                return HTTPError(.notFound, code: "unknown_item", message: "The list has no item \(named)\(items.count > 10 ? " … (\(items.count) in all)" : "")")
            case .multipleSelectionNotAllowed:
                return HTTPError(.unprocessableContent, code: error.code, message: error.description)
            }
        case let error as MemoryBudgetError:
            switch error {
            case .session: return HTTPError(.unprocessableContent, code: "memory_budget", message: error.description)
            case .server, .process, .streams:
                return HTTPError(.serviceUnavailable, code: "memory_full", message: error.description, headers: ["Retry-After": "5"])
            }
        case let error as ListStoreError:
            // Nothing unsaved was kept or shown; the client may try again.
            return HTTPError(.serviceUnavailable, code: "store_unavailable", message: error.description)
        default:
            logger.warning("unexpected error for \(request.method) \(request.path): \(error)")
            return HTTPError(.internalServerError, code: "internal_error", message: "Something went wrong")
        }
    }

    /// Dispatches by the route table (``Routes``), scope by scope: the paths of their own, then the
    /// API's, then a list's pages (its descriptor looked up first), then the static files.
    private func route(_ request: Request) async throws -> Response {
        let segments = request.pathSegments
        if let match = Routes.match(.root, segments, testHooks: configuration.testHooks), case .root(let root) = match.route.target {
            try allow(request, match.route)
            switch root {
            case .index:
                return await indexPage(request)
            case .openAPI:
                return .json(openAPIDocument.data, headers: ["Cache-Control": "no-cache"])
            case .health:
                return healthResponse
            case .metrics:
                guard let metrics = metricsResponse() else { throw HTTPError(.notFound, message: "This server exports no metrics") }
                return metrics
            case .dropStreams:
                closeAllStreams()
                return Response(status: .noContent)
            }
        }
        if Route.Scope.api.isPrefix(of: segments) {
            return try await routeAPI(request, segments)
        }
        if Route.Scope.page.isPrefix(of: segments) {
            guard let descriptor = demo(named: segments[1]) else {
                throw HTTPError(.notFound, code: "unknown_demo", message: "There is no demo named “\(segments[1])”")
            }
            guard let match = Routes.match(.page, segments.dropFirst(2), testHooks: configuration.testHooks),
                  case .page(let page) = match.route.target else {
                throw HTTPError(.notFound, message: "No such page: \(request.path)")
            }
            try allow(request, match.route)
            switch page {
            case .page: return try await demoPage(request, descriptor)
            case .events: return try await eventStream(request, descriptor)
            case .viewport: return try await viewport(request, descriptor)
            case .measure: return try await measure(request, descriptor)
            case .actions: return .json(descriptor.actions)
            case .asset: return try asset(request, descriptor, name: match.parameter("asset"))
            case .action: return try await action(request, descriptor, name: match.parameter("action"))
            case .select: return try await select(request, descriptor)
            case .swipe: return try await swipe(request, descriptor)
            case .menu: return try await menu(request, descriptor)
            case .editing: return try await setEditing(request, descriptor)
            case .deleteItem: return try await deleteItem(request, descriptor)
            case .detailAccessory: return try await tapDetailAccessory(request, descriptor)
            }
        }
        if request.method == .get || request.method == .head, let file = staticFiles.response(for: request) {
            return file
        }
        throw HTTPError(.notFound, message: "No such page: \(request.path)")
    }

    /// 405, naming the methods `route` allows in `Allow`, unless the request's is one of them.
    func allow(_ request: Request, _ route: Route) throws {
        let methods = route.methods
        guard methods.contains(request.method.rawValue) else {
            throw HTTPError(.methodNotAllowed, message: "\(request.method) is not allowed here; use \(methods.joined(separator: " or "))",
                            headers: ["Allow": methods.joined(separator: ", ")])
        }
    }

    /// Renders an error: browsers (asking for HTML) get a page, for a page they asked for or for a
    /// form they posted without JavaScript (the message, and the way back to the demo); everything
    /// else gets the JSON error (``HTTPError/response``, also what MicroHTTP's own refusals use).
    func errorResponse(_ error: HTTPError, for request: Request) -> Response {
        let accept = request.headers["Accept"] ?? ""
        let formPost = request.method == .post && request.isForm
        guard accept.contains("text/html"), request.method == .get || formPost else { return error.response }
        var context: [String: Any] = ["status": error.status.code, "message": error.message, "demos": demoSummaries(),
                                      "title": error.status.code == 404 ? "Page not found" : error.status.reasonPhrase]
        if formPost, let demo = demoPath(of: request) {
            context["title"] = "That didn’t work"
            context["back"] = demo.path
            context["backTitle"] = demo.title
        }
        guard let html = renderer.render("not-found", context) else { return error.response }
        var headers = error.headers
        headers["Content-Type"] = "text/html; charset=utf-8"
        return Response(status: error.status, headers: headers, body: Array(html.utf8))
    }

    /// The demo page a request under `/demos/<name>/…` belongs to, if that demo exists.
    func demoPath(of request: Request) -> (path: String, title: String)? {
        let segments = request.path.split(separator: "/")
        guard segments.count >= 2, segments[0] == "demos",
              let demo = demos.first(where: { $0.name == segments[1] }) else { return nil }
        return ("/demos/\(demo.name)", demo.title)
    }

    /// The index's entries: a key is left out when it has no value (an empty string is not
    /// false in a template).
    func demoSummaries() -> [[String: String]] {
        demos.map { demo in
            var entry = ["name": demo.name, "title": demo.title, "summary": demo.summary]
            if !demo.tryThis.isEmpty { entry["tryThis"] = demo.tryThis }
            if let picture = demo.picture { entry["picture"] = picture }
            return entry
        }
    }

    /// The session for a request, and the cookie to set when it is new.
    /// - Throws: ``ListStoreError/unavailable(_:)`` (503) when a new session cannot be saved:
    ///   no cookie is handed out for a session that a restart would not know.
    func session(for request: Request) async throws -> (Session, SetCookie?) {
        let (session, isNew) = try await sessions.session(cookie: request.cookies[Self.cookieName])
        return (session, isNew ? sessionCookie(session, for: request) : nil)
    }
}

extension Response {
    func with(_ cookie: SetCookie?) -> Response {
        guard let cookie else { return self }
        return settingCookie(cookie)
    }
}
