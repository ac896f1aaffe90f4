import Foundation
import MicroHTTP

// The selection routes (docs/protocol.md, "Selection"): a person's tap from the page
// (`POST /demos/<name>/select`, JSON from the client or the no-JavaScript checkboxes), and a
// script's read and change (`GET`/`POST /api/sessions/{id}/demos/{name}/selection`).

extension WebApp {
    /// `{"version": V, "selection": {…}}`.
    static func selectionAnswer(version: Int, selection: ListSelection?) -> Response {
        var writer = JSONWriter(capacity: 64 + (selection?.items.count ?? 0) * 12)
        writer.raw("{\"version\":"); writer.int(version)
        writer.selection(selection)
        writer.raw("}")
        return Response(headers: ["Content-Type": "application/json"], body: .bytes(writer.bytes))
    }

    /// `GET …/selection`.
    func selectionAnswer(_ list: LiveList) throws -> Response {
        let (version, selection) = list.currentSelection()
        guard selection != nil else { throw Self.notSelectable(list.name) }
        return Self.selectionAnswer(version: version, selection: selection)
    }

    static func notSelectable(_ name: String) -> HTTPError {
        HTTPError(.notFound, code: "not_selectable", message: "The \(name) list has no selection")
    }

    /// A script's change (`POST …/selection`): exactly one of `select` (add), `deselect`,
    /// `items` (replace, or add with `"mode": "add"`) and `all` (`true`: select every item,
    /// `false`: deselect every item).
    struct SelectionInput: Decodable {
        var select: [String]?
        var deselect: [String]?
        var items: [String]?
        var mode: String?
        var all: Bool?

        func request() throws(HTTPError) -> SelectionRequest {
            let given = [select != nil, deselect != nil, items != nil, all != nil].filter { $0 }.count
            guard given == 1 else {
                throw HTTPError(.badRequest, code: "invalid_parameter", message: "Give exactly one of select, deselect, items and all")
            }
            for (name, ids) in [("select", select), ("deselect", deselect), ("items", items)] {
                if let ids { try APILimits.checkIdentifiers(ids, at: name) }
            }
            if let select { return .select(select) }
            if let deselect { return .deselect(deselect) }
            if let all { return all ? .selectAll : .replace([]) }
            switch mode ?? "replace" {
            case "replace": return .replace(items ?? [])
            case "add": return .select(items ?? [])
            default: throw HTTPError(.badRequest, code: "invalid_parameter", message: "mode must be replace or add")
            }
        }
    }

    func changeSelection(_ request: Request, _ list: LiveList) async throws -> Response {
        guard list.demo.selection != nil else { throw Self.notSelectable(list.name) }
        let input: SelectionInput = try decodeBody(request)
        let (version, selection) = try await list.select(try input.request(), client: "api", seq: nil)
        return Self.selectionAnswer(version: version, selection: selection)
    }

    /// A person's tap from the page: `{"item", "extend", "seq", "client"}`, `{"item", "focus": true}`
    /// (an arrow key moved the focus onto it) or `{"all": true, "seq"}` from the client, or the no-JavaScript form's checkboxes (`items` checked of `shown`),
    /// answered `303` back to the page.
    struct TapInput: Decodable {
        var item: String?
        var extend: Bool?
        var focus: Bool?
        var all: Bool?
        var seq: Int?
        var client: String?
    }

    func select(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let selectionRequest: SelectionRequest
        var seq: Int?
        var client = "default"
        var page: Int?
        if request.isForm {
            var checked: [String] = [], shown: [String] = []
            for item in QueryItem.parse(request.bodyText) {
                switch item.name {
                case "items": checked.append(item.value ?? "")
                case "shown": shown.append(item.value ?? "")
                case "page": page = item.value.flatMap { Int($0) }.flatMap { $0 >= 1 ? $0 : nil }
                default: break
                }
            }
            try APILimits.checkIdentifiers(shown, at: "shown")
            try APILimits.checkIdentifiers(checked, at: "items")
            selectionRequest = .form(checked: checked, shown: shown)
        } else {
            let input: TapInput = try decodeBody(request)
            seq = input.seq
            client = input.client.map { String($0.prefix(64)) } ?? client
            if input.all == true {
                selectionRequest = .selectAll
            } else if let item = input.item {
                try APILimits.checkIdentifier(item, at: "item")
                selectionRequest = input.focus == true ? .focus(item) : .tap(item, extend: input.extend ?? false)
            } else {
                throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: item")
            }
        }
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        guard list.demo.selection != nil else { throw Self.notSelectable(descriptor.name) }
        let (version, selection) = try await retryingLostRace(session, descriptor, list) { list in
            try await list.select(selectionRequest, client: client, seq: seq)
        }
        if request.isForm {
            return Response.redirect(to: "/demos/\(descriptor.name)" + (page.map { "?page=\($0)" } ?? "")).with(cookie)
        }
        return Self.selectionAnswer(version: version, selection: selection).with(cookie)
    }
}
