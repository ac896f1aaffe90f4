import Foundation
import MicroHTTP

// Deleting one item (docs/protocol.md, "Editing"): a person's confirmed Delete in a row
// (`POST /demos/<name>/delete-item`, JSON or a no-JavaScript form) and a script's
// (`POST /api/sessions/{id}/demos/{name}/delete-item`), through the list's own hook.

extension WebApp {
    /// A request about one item (`…/delete-item`, `…/detail-accessory`): `{"item": I, "seq": N,
    /// "client": C}`, or a form's `item`.
    struct ItemInput: Decodable {
        var item: String?
        var seq: Int?
        var client: String?
    }

    /// The item a request names, checked, and the rest of its body.
    func itemInput(_ request: Request) throws -> (item: String, input: ItemInput) {
        let input: ItemInput = request.isForm
            ? ItemInput(item: QueryItem.parse(request.bodyText).last { $0.name == "item" }?.value)
            : try decodeBody(request)
        guard let item = input.item else { throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: item") }
        try APILimits.checkIdentifier(item, at: "item")
        return (item, input)
    }

    static func notDeletable(_ name: String) -> HTTPError {
        HTTPError(.notFound, code: "not_deletable", message: "The \(name) list deletes no items")
    }

    /// `{"version": V, "deleted": I}`.
    static func deletedAnswer(version: Int, item: String) -> Response {
        var writer = JSONWriter(capacity: 48 + item.utf8.count)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"deleted\":"); writer.string(item)
        writer.raw("}")
        return Response(headers: ["Content-Type": "application/json"], body: .bytes(writer.bytes))
    }

    /// `POST …/delete-item` from a script.
    func deleteItem(_ request: Request, _ list: LiveList) async throws -> Response {
        guard (list.demo as? any DeletingDemo)?.deletesItems == true else { throw Self.notDeletable(list.name) }
        let (item, _) = try itemInput(request)
        let version = try await list.deleteItem(item, client: "api", seq: nil)
        return Self.deletedAnswer(version: version, item: item)
    }

    /// `POST /demos/<name>/delete-item`: a person confirmed a row's Delete.
    func deleteItem(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let (item, input) = try itemInput(request)
        let client = input.client.map { String($0.prefix(64)) } ?? "default"
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        guard (list.demo as? any DeletingDemo)?.deletesItems == true else { throw Self.notDeletable(descriptor.name) }
        let version = try await retryingLostRace(session, descriptor, list) { list in
            try await list.deleteItem(item, client: client, seq: input.seq)
        }
        if request.isForm { return Response.redirect(to: "/demos/\(descriptor.name)").with(cookie) }
        return Self.deletedAnswer(version: version, item: item).with(cookie)
    }
}
