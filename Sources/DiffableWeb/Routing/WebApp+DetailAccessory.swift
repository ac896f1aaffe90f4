import Foundation
import MicroHTTP

// A detail accessory's tap (docs/protocol.md, "Editing"): a person's, from the page
// (`POST /demos/<name>/detail-accessory`, JSON or a no-JavaScript form), and a script's
// (`POST /api/sessions/{id}/demos/{name}/detail-accessory`), through the list's
// `accessoryButtonTapped(for:)`. Answered `{"version": V, "item": I}`.

extension WebApp {
    /// 404 `no_accessories` unless the list's cells carry accessories.
    private static func offersDetailAccessory(_ list: LiveList) throws {
        guard (list.demo as? any DetailAccessoryServing)?.hasDetailAccessories == true else {
            throw HTTPError(.notFound, code: "no_accessories", message: "The \(list.name) list has no accessories")
        }
    }

    /// `POST …/detail-accessory` from a script.
    func tapDetailAccessory(_ request: Request, _ list: LiveList) async throws -> Response {
        try await itemRequest(request, list, answerKey: "item", offers: Self.offersDetailAccessory) { list, item in
            try await list.tapDetailAccessory(of: item, client: "api", seq: nil)
        }
    }

    /// `POST /demos/<name>/detail-accessory`: a person tapped a row's detail (info) button.
    func tapDetailAccessory(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        try await itemRequest(request, descriptor, answerKey: "item", offers: Self.offersDetailAccessory) { list, item, client, seq in
            try await list.tapDetailAccessory(of: item, client: client, seq: seq)
        }
    }
}
