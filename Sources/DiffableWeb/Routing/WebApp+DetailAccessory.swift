import Foundation
import MicroHTTP

// A detail accessory's tap (docs/protocol.md, "Editing"): a person's, from the page
// (`POST /demos/<name>/detail-accessory`, JSON or a no-JavaScript form), and a script's
// (`POST /api/sessions/{id}/demos/{name}/detail-accessory`), through the list's
// `accessoryButtonTapped(for:)`.

extension WebApp {
    static func noAccessories(_ name: String) -> HTTPError {
        HTTPError(.notFound, code: "no_accessories", message: "The \(name) list has no accessories")
    }

    /// `{"version": V, "item": I}`.
    static func detailAccessoryAnswer(version: Int, item: String) -> Response {
        var writer = JSONWriter(capacity: 48 + item.utf8.count)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"item\":"); writer.string(item)
        writer.raw("}")
        return Response(headers: ["Content-Type": "application/json"], body: .bytes(writer.bytes))
    }

    /// `POST …/detail-accessory` from a script.
    func tapDetailAccessory(_ request: Request, _ list: LiveList) async throws -> Response {
        guard (list.demo as? any DetailAccessoryServing)?.hasDetailAccessories == true else { throw Self.noAccessories(list.name) }
        let (item, _) = try itemInput(request)
        let version = try await list.tapDetailAccessory(of: item, client: "api", seq: nil)
        return Self.detailAccessoryAnswer(version: version, item: item)
    }

    /// `POST /demos/<name>/detail-accessory`: a person tapped a row's detail (info) button.
    func tapDetailAccessory(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let (item, input) = try itemInput(request)
        let client = input.client.map { String($0.prefix(64)) } ?? "default"
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        guard (list.demo as? any DetailAccessoryServing)?.hasDetailAccessories == true else { throw Self.noAccessories(descriptor.name) }
        let version = try await retryingLostRace(session, descriptor, list) { list in
            try await list.tapDetailAccessory(of: item, client: client, seq: input.seq)
        }
        if request.isForm { return Response.redirect(to: "/demos/\(descriptor.name)").with(cookie) }
        return Self.detailAccessoryAnswer(version: version, item: item).with(cookie)
    }
}
