import Foundation
import MicroHTTP

// Deleting one item (docs/protocol.md, "Editing"): a person's confirmed Delete in a row
// (`POST /demos/<name>/delete-item`, JSON or a no-JavaScript form) and a script's
// (`POST /api/sessions/{id}/demos/{name}/delete-item`), through the list's own hook.
// Answered `{"version": V, "deleted": I}`.

extension WebApp {
    /// 404 `not_deletable` unless the list deletes items through its own hook.
    private static func deletesItems(_ list: LiveList) throws {
        guard (list.demo as? any DeletingDemo)?.deletesItems == true else {
            throw HTTPError(.notFound, code: "not_deletable", message: "The \(list.name) list deletes no items")
        }
    }

    /// `POST …/delete-item` from a script.
    func deleteItem(_ request: Request, _ list: LiveList) async throws -> Response {
        try await itemRequest(request, list, answerKey: "deleted", offers: Self.deletesItems) { list, item in
            try await list.deleteItem(item, client: "api", seq: nil)
        }
    }

    /// `POST /demos/<name>/delete-item`: a person confirmed a row's Delete.
    func deleteItem(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        try await itemRequest(request, descriptor, answerKey: "deleted", offers: Self.deletesItems) { list, item, client, seq in
            try await list.deleteItem(item, client: client, seq: seq)
        }
    }
}
