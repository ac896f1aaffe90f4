import Foundation
import MicroHTTP

// What the swipe action and context menu routes share (`+SwipeActions`, `+ContextMenu`): the
// list's capability looked up, a performed request's answer, and the page's route (a `GET`
// reads, a `POST` performs in a write, retried when another process saved first).

extension WebApp {
    /// `{"version": V, "performed": bool}`.
    struct PerformedAnswer: Encodable {
        var version: Int
        var performed: Bool
    }

    /// The list's contextual actions, or 404 `no_swipe_actions`/`no_context_menu`.
    static func contextual(_ list: LiveList, swipe: Bool) throws -> any ContextualActionsServing {
        guard let demo = list.demo as? any ContextualActionsServing, swipe ? demo.offersSwipeActions : demo.offersContextMenus else {
            throw swipe ? HTTPError(.notFound, code: "no_swipe_actions", message: "The \(list.name) list has no swipe actions")
                        : HTTPError(.notFound, code: "no_context_menu", message: "The \(list.name) list has no context menu")
        }
        return demo
    }

    /// A required value of a request, or `400 missing_parameter` naming it.
    static func required<T>(_ value: T?, _ name: String) throws(HTTPError) -> T {
        guard let value else { throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: \(name)") }
        return value
    }

    /// A page's route: `GET` answers `read`, `POST` runs `perform` as the page's client.
    func contextualPage(_ request: Request, _ descriptor: DemoDescriptor, read: (Request, LiveList) throws -> Response,
                        perform: (Request, LiveList, String) async throws -> Response) async throws -> Response {
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        if request.method == .post {
            return try await retryingLostRace(session, descriptor, list) { try await perform(request, $0, "default") }.with(cookie)
        }
        return try read(request, list).with(cookie)
    }
}
