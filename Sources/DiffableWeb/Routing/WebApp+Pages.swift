import CompositionalLayout
import Foundation
import MicroHTTP

// Server-rendered pages: the demo list, and each demo with its first screen of cells in the
// HTML, so the page reads (and, with JavaScript off, works) before the client takes over.

extension WebApp {
    func indexPage(_ request: Request) async -> Response {
        // The index needs no session; it hands one out when it can (not when the store cannot save it).
        let cookie = (try? await session(for: request))?.1
        let html = renderer.render("index", ["demos": demoSummaries()]) ?? ""  // no "title": the page is "DiffableWeb" alone
        return Response.html(html).with(cookie)
    }

    func demoPage(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let viewport = try requestedViewport(request.query)
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        // A GET writes nothing: a viewport the URL names is used for this page only (a link from
        // another site must not change the session's), and a query the page asks for (the
        // no-JavaScript search form) is laid out aside; the client makes both real with its own
        // POSTs (the stream's viewport, the search).
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value ?? "" }
        let preview = list.demo.pagePreview(query: query)
        let container = viewport ?? list.container
        let firstScreen = LayoutRect(x: 0, y: 0, width: container.width, height: container.height * 1.5)
        let cells: [WireCell], contentSize: LayoutPixelSize, status: String, itemCount: Int
        if let preview {
            (cells, contentSize) = list.previewCells(of: preview.snapshot, intersecting: firstScreen, limit: 500, container: container)
            status = preview.status
            itemCount = preview.snapshot.numberOfItems
        } else {
            (cells, contentSize, status) = list.cells(intersecting: firstScreen, limit: 500, container: container)
            itemCount = list.dataSource.snapshot().numberOfItems
        }
        // The page's toolbar: a button per action that needs nothing more (Append). Actions
        // that need parameters are for scripts (the "Script this session" panel has a form for
        // each), or target one item and are in its cell.
        let buttons = descriptor.actions.filter { !$0.parameters.contains(where: \.required) }.map { action -> [String: Any] in
            ["action": action.name, "title": action.buttonTitle, "url": "/demos/\(descriptor.name)/actions/\(action.name)"]
        }
        let scriptForms = descriptor.actions.filter { !$0.parameters.isEmpty }.map { Self.scriptForm(action: $0, demo: descriptor.name) }
        var context: [String: Any] = [
            "title": descriptor.title, "name": descriptor.name, "summary": descriptor.summary,
            "status": status, "details": list.demo.details(of: list.dataSource.snapshot()), "listHeight": WireFrame.text(WireFrame.round(contentSize.height)),
            // The layout's leading inset (its leftmost cell): the list widens by it on both sides,
            // so that its first cell sits on the page's one left edge (app.css, `--list-inset`).
            "listInset": WireFrame.text(max(0, cells.map(\.frame.x).min() ?? 0)),
            "sessionID": session.shareID.value,
            "origin": publicOrigin(of: request),
            "buttons": buttons,
            "hasButtons": !buttons.isEmpty || descriptor.reorderable,
            "scriptForms": scriptForms,
            "hasScriptForms": !scriptForms.isEmpty,
            "reorderable": descriptor.reorderable,
            "cells": cells.map { cell -> [String: Any] in
                ["id": cell.id, "kind": cell.kind.name, "section": cell.section, "isItem": cell.kind == .item, "html": cell.html, "frame": cell.frame.attribute,
                 "decoration": cell.kind.decorationKind ?? "", "isDecoration": cell.kind.decorationKind != nil, "fits": cell.fits,
                 "x": WireFrame.text(cell.frame.x), "y": WireFrame.text(cell.frame.y),
                 "w": WireFrame.text(cell.frame.w), "h": WireFrame.text(cell.frame.h),
                 "position": (cell.index ?? 0) + 1]
            },
            "itemCount": itemCount,
            "demos": demoSummaries(),
        ]
        if let example = descriptor.example { context["example"] = ["action": example.action, "body": example.body] }
        for (key, value) in preview?.values ?? list.demo.pageValues() {
            context[key] = value
            context["\(key)_\(value)"] = true  // `{{#layout_grid}}`: which option is pressed
        }
        // Without JavaScript the whole list reads page by page (the grid above shows one screen).
        let pages = max(1, (itemCount + Self.fallbackPageSize - 1) / Self.fallbackPageSize)
        let pageNumber = min(try Self.pageNumber(request.query["page"]), pages)
        let first = (pageNumber - 1) * Self.fallbackPageSize
        // A selectable list's page is also a form of checkboxes (`partials/fallback`).
        let selection = list.demo.selection
        let selected = Set(selection?.items ?? [])
        context["pageItems"] = list.itemHTML(of: preview?.snapshot, range: first..<min(first + Self.fallbackPageSize, itemCount))
            .map { ["html": $0.html, "id": $0.id, "selected": selected.contains($0.id)] as [String: Any] }
        if let selection {
            context["selectable"] = true
            context["multiple"] = selection.multiple
            context["selectedCount"] = selection.items.count
            context["editing"] = selection.editing  // the Edit button, and `data-editing` on the list (docs/protocol.md, "Editing")
            context["hasButtons"] = true
            if (list.demo as? any SelectionPatternServing)?.selectionIsGrid == true { context["selectionGrid"] = true }
        }
        if (list.demo as? any DetailAccessoryServing)?.hasDetailAccessories == true { context["detailAccessories"] = true }
        // Swipe actions and context menus: the client asks the server for them (`+SwipeActions`, `+ContextMenu`).
        if let contextual = list.demo as? any ContextualActionsServing {
            if contextual.offersSwipeActions { context["swipeActions"] = true }
            if contextual.offersContextMenus { context["contextMenu"] = true }
        }
        context["firstPosition"] = first + 1
        context["pageNumber"] = pageNumber
        context["pageCount"] = pages
        context["paged"] = pages > 1
        let pageLink = { (page: Int) -> String in
            var items = request.queryItems.filter { $0.name != "page" }
            items.append(QueryItem(name: "page", value: String(page)))
            let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
            return "/demos/\(descriptor.name)?" + items.map { encode($0.name) + ($0.value.map { "=" + encode($0) } ?? "") }.joined(separator: "&")
        }
        if pageNumber > 1 { context["previousPage"] = pageLink(pageNumber - 1) }
        if pageNumber < pages { context["nextPage"] = pageLink(pageNumber + 1) }
        if let preview {
            context["preview"] = true
            context["previewAction"] = preview.action
            context["previewBody"] = Self.jsonObject(preview.parameters)
        }
        let html = renderer.render(descriptor.pageTemplate, context) ?? ""
        return Response.html(html).with(cookie)
    }

    /// A form for one action in the "Script this session" panel: a field per parameter (a
    /// menu for a fixed set of values). Positions are shown counting from 1, as people count
    /// (`data-one-based`: the client, or the server for a form post, takes 1 off).
    static func scriptForm(action: ActionDescriptor, demo: String) -> [String: Any] {
        let fields = action.parameters.map { parameter -> [String: Any] in
            let position = parameter.position
            var field: [String: Any] = [
                "field": parameter.name, "formID": "script-\(action.name)-\(parameter.name)",
                "label": position ? parameter.description.replacingOccurrences(of: " (0-based)", with: "") + " (from 1)" : parameter.description,
                "inputType": parameter.type == "integer" ? "number" : "text",
                "required": parameter.required, "oneBased": position,
            ]
            if let choices = parameter.choices, !choices.isEmpty {
                field["choices"] = choices.map { ["choice": $0] }
                field["hasChoices"] = true
            }
            return field
        }
        return ["action": action.name, "title": action.buttonTitle, "description": action.description,
                "url": "/demos/\(demo)/actions/\(action.name)", "fields": fields]
    }

    /// Where people reach this server, for the commands a page shows: ``WebConfiguration/publicURL``,
    /// or the origin the request was sent to (its `Host`, when it is a plausible host name and
    /// port; otherwise the loopback address).
    func publicOrigin(of request: Request) -> String {
        if let url = configuration.publicURL, !url.isEmpty { return url.hasSuffix("/") ? String(url.dropLast()) : url }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        if let host = request.headers["Host"], !host.isEmpty, host.count <= 255, host.allSatisfy(allowed.contains) {
            return "http://\(host)"
        }
        return "http://127.0.0.1"
    }

    /// Items per page of the no-JavaScript list.
    static let fallbackPageSize = 100

    /// `?page=` (1-based; absent: 1).
    static func pageNumber(_ text: String?) throws(HTTPError) -> Int {
        guard let text else { return 1 }
        guard let page = Int(text), page >= 1 else {
            throw HTTPError(.badRequest, code: "invalid_parameter", message: "page must be a whole number from 1")
        }
        return page
    }

    /// A flat JSON object of strings (for a `data-` attribute; the template escapes it).
    static func jsonObject(_ values: [String: String]) -> String {
        var writer = JSONWriter(capacity: 64)
        writer.raw("{")
        for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(key); writer.raw(":"); writer.string(value)
        }
        writer.raw("}")
        return writer.text
    }

    /// The viewport a page or stream URL asks for (`?width=…&height=…`): `nil` when it names
    /// none; a `400 invalid_viewport`, as the API's layout route answers, when it names a bad one.
    func requestedViewport(_ query: Query) throws(HTTPError) -> LayoutContainer? {
        let width = query["width"], height = query["height"]
        if width == nil && height == nil { return nil }
        guard let size = viewportSize(width: width, height: height) else { throw Self.invalidViewport }
        return LayoutContainer(width: size.width, height: size.height)
    }

    static let invalidViewport = HTTPError(.badRequest, code: "invalid_viewport", message: "width and height must be numbers in 1…10000")

    /// A viewport from untrusted text: whole CSS pixels in 1…10,000, or `nil`.
    func viewportSize(width: String?, height: String?) -> (width: Double, height: Double)? {
        guard let width, let height, let w = Double(width), let h = Double(height),
              w.isFinite, h.isFinite, (1...10_000).contains(w), (1...10_000).contains(h) else { return nil }
        return (w.rounded(), h.rounded())
    }
}
