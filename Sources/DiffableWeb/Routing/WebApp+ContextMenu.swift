import Foundation
import MicroHTTP

// The context menu routes (docs/protocol.md, "Context menus"): the menu for a point
// (`GET /demos/<name>/menu?item=…`: the items it is for, by the selection, and its contents;
// `?items=a&items=b` for exactly those items; neither for empty space) and choosing one of its
// actions (`POST`, `{"items": […], "action", "seq"}`). The same under
// `/api/sessions/{id}/demos/{name}/menu` for scripts.

extension WebApp {
    /// `{"items": […], "action", "seq"?, "client"?}`.
    struct MenuInput: Decodable {
        var items: [String]?
        var action: String?
        var seq: Int?
        var client: String?
    }

    /// `GET`: `{"items": […], "menu": {"title", "children": […]} | null}`.
    func menuAnswer(_ request: Request, _ list: LiveList) throws -> Response {
        let demo = try Self.contextual(list, swipe: false)
        let snapshot = list.currentSnapshot().snapshot
        let explicit = request.queryItems.filter { $0.name == "items" }.map { $0.value ?? "" }
        if !explicit.isEmpty {
            try APILimits.checkIdentifiers(explicit, at: "items")
            return try jsonResponse(demo.contextMenu(forItems: explicit, in: snapshot))
        }
        let item = request.query["item"]
        if let item { try APILimits.checkIdentifier(item, at: "item") }
        return try jsonResponse(demo.contextMenu(at: item, in: snapshot))
    }

    /// `POST`: runs the menu's action on the items.
    func performMenuAction(_ request: Request, _ list: LiveList, client: String) async throws -> Response {
        _ = try Self.contextual(list, swipe: false)
        let input: MenuInput = try decodeBody(request)
        let items = try Self.required(input.items, "items"), action = try Self.required(input.action, "action")
        try APILimits.checkIdentifiers(items, at: "items")
        try APILimits.checkIdentifier(action, at: "action")
        let (version, performed) = try await list.performMenuAction(action, on: items, client: input.client.map { String($0.prefix(64)) } ?? client,
                                                                    seq: input.seq)
        return try jsonResponse(PerformedAnswer(version: version, performed: performed))
    }

    /// The page's route: `GET` the menu, `POST` an action of it.
    func menu(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        try await contextualPage(request, descriptor, read: menuAnswer, perform: performMenuAction)
    }
}
