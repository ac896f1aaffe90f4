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

    /// `GET …?item=`: what the item offers on each edge.
    func swipeActionsAnswer(_ request: Request, _ list: LiveList) throws -> Response {
        let demo = try Self.contextual(list, swipe: true)
        let item = try Self.required(request.query["item"], "item")
        try APILimits.checkIdentifier(item, at: "item")
        return try jsonResponse(demo.swipeActions(for: item, in: list.currentSnapshot().snapshot))
    }

    /// `POST`: performs the action (a script's, or a person's swipe from the page).
    func performSwipeAction(_ request: Request, _ list: LiveList, client: String) async throws -> Response {
        _ = try Self.contextual(list, swipe: true)
        let input: SwipeInput = try decodeBody(request)
        let item = try Self.required(input.item, "item"), action = try Self.required(input.action, "action")
        try APILimits.checkIdentifier(item, at: "item")
        try APILimits.checkIdentifier(action, at: "action")
        let (version, performed) = try await list.performSwipeAction(action, on: item, client: input.client.map { String($0.prefix(64)) } ?? client,
                                                                     seq: input.seq)
        return try jsonResponse(PerformedAnswer(version: version, performed: performed))
    }

    /// The page's route: `GET` lists an item's actions, `POST` performs one.
    func swipe(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        try await contextualPage(request, descriptor, read: swipeActionsAnswer, perform: performSwipeAction)
    }
}
