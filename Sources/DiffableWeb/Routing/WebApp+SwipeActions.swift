import Foundation
import MicroHTTP

// The swipe action routes (docs/protocol.md, "Swipe actions"): an item's offered actions
// (`GET /demos/<name>/swipe?item=…`, `GET /api/sessions/{id}/demos/{name}/swipe-actions?item=…`)
// and performing one (`POST` to either, `{"item", "action", "seq"}`).

extension WebApp {
    /// `{"item", "action", "seq"?, "client"?}`.
    struct SwipeInput: Decodable {
        var item: String?
        var action: String?
        var seq: Int?
        var client: String?
    }

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

    /// `GET …?item=`: what the item offers on each edge.
    func swipeActionsAnswer(_ request: Request, _ list: LiveList) throws -> Response {
        let demo = try Self.contextual(list, swipe: true)
        guard let item = request.query["item"] else {
            throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: item")
        }
        try APILimits.checkIdentifier(item, at: "item")
        return try jsonResponse(demo.swipeActions(for: item, in: list.currentSnapshot().snapshot))
    }

    /// `POST`: performs the action (a script's, or a person's swipe from the page).
    func performSwipeAction(_ request: Request, _ list: LiveList, client: String) async throws -> Response {
        _ = try Self.contextual(list, swipe: true)
        let input: SwipeInput = try decodeBody(request)
        guard let item = input.item else { throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: item") }
        guard let action = input.action else { throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: action") }
        try APILimits.checkIdentifier(item, at: "item")
        try APILimits.checkIdentifier(action, at: "action")
        let (version, performed) = try await list.performSwipeAction(action, on: item, client: input.client.map { String($0.prefix(64)) } ?? client,
                                                                     seq: input.seq)
        return try jsonResponse(PerformedAnswer(version: version, performed: performed))
    }

    /// The page's route: `GET` lists an item's actions, `POST` performs one.
    func swipe(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        if request.method == .post {
            return try await retryingLostRace(session, descriptor, list) { try await performSwipeAction(request, $0, client: "default") }.with(cookie)
        }
        return try swipeActionsAnswer(request, list).with(cookie)
    }
}
