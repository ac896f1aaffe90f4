import Foundation
import MicroHTTP

// The editing routes (docs/protocol.md, "Editing"): a person's Edit and Done
// (`POST /demos/<name>/editing`, JSON or a no-JavaScript form), and a script's
// (`GET`/`POST /api/sessions/{id}/demos/{name}/editing`).

extension WebApp {
    /// `{"version": V, "editing": B, "selection": {…}}`.
    static func editingAnswer(version: Int, selection: ListSelection?) -> Response {
        var writer = JSONWriter(capacity: 80 + (selection?.items.count ?? 0) * 12)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"editing\":"); writer.bool(selection?.editing ?? false)
        writer.selection(selection)
        writer.raw("}")
        return Response(headers: ["Content-Type": "application/json"], body: .bytes(writer.bytes))
    }

    /// `GET …/editing`.
    func editingAnswer(_ list: LiveList) throws -> Response {
        let (version, selection) = list.currentSelection()
        guard selection != nil else { throw Self.notSelectable(list.name) }
        return Self.editingAnswer(version: version, selection: selection)
    }

    /// `{"editing": B, "seq": N, "client": C}` (the page's also `seq` and `client`).
    struct EditingInput: Decodable {
        var editing: Bool?
        var seq: Int?
        var client: String?
    }

    /// A form's `editing=true|false` or the JSON body's `editing`, and its `seq` and `client`.
    private func editingInput(_ request: Request) throws -> EditingInput {
        guard request.isForm else { return try decodeBody(request) }
        let value = QueryItem.parse(request.bodyText).last { $0.name == "editing" }?.value
        return EditingInput(editing: value == "true" ? true : value == "false" ? false : nil)
    }

    /// `POST …/editing` from a script.
    func changeEditing(_ request: Request, _ list: LiveList) async throws -> Response {
        guard list.demo.selection != nil else { throw Self.notSelectable(list.name) }
        guard let editing = try editingInput(request).editing else { throw Self.editingRequired }
        let (version, selection) = try await list.select(.setEditing(editing), client: "api", seq: nil)
        return Self.editingAnswer(version: version, selection: selection)
    }

    static let editingRequired = HTTPError(.badRequest, code: "invalid_parameter", message: "Give editing: true or false")

    /// `POST /demos/<name>/editing`: the page's Edit and Done.
    func setEditing(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let input = try editingInput(request)
        guard let editing = input.editing else { throw Self.editingRequired }
        let client = input.client.map { String($0.prefix(64)) } ?? "default"
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        guard list.demo.selection != nil else { throw Self.notSelectable(descriptor.name) }
        let (version, selection) = try await retryingLostRace(session, descriptor, list) { list in
            // Ordered among this client's Edit and Done alone: a tap sent just after (a newer
            // `seq`) must not make the press stale.
            try await list.select(.setEditing(editing), client: "editing:" + client, seq: input.seq)
        }
        if request.isForm { return Response.redirect(to: "/demos/\(descriptor.name)").with(cookie) }
        return Self.editingAnswer(version: version, selection: selection).with(cookie)
    }
}
