import CompositionalLayout
import Foundation
import MicroHTTP

// Server-rendered pages: the demo list, and each demo with its first screen of cells in the
// HTML, so the page reads (and, with JavaScript off, works) before the client takes over.

extension WebApp {
    func indexPage(_ request: Request) async -> Response {
        let (_, cookie) = await session(for: request)
        let html = renderer.render("index", ["demos": demoSummaries(), "title": "DiffableWeb"]) ?? ""
        return Response.html(html).with(cookie)
    }

    func demoPage(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let viewport = try requestedViewport(request.query)
        let (session, cookie) = await session(for: request)
        let list = try await list(session, descriptor)
        if let viewport { list.setViewport(viewport) }
        // A GET writes nothing: a query the page asks for (the no-JavaScript search form) is
        // laid out aside, and the client makes it real with its own POST.
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value ?? "" }
        let preview = list.demo.pagePreview(query: query)
        let container = list.container
        let firstScreen = LayoutRect(x: 0, y: 0, width: container.width, height: container.height * 1.5)
        let cells: [WireCell], contentSize: LayoutPixelSize, status: String, itemCount: Int
        if let preview {
            (cells, contentSize) = list.previewCells(of: preview.snapshot, intersecting: firstScreen, limit: 500)
            status = preview.status
            itemCount = preview.snapshot.numberOfItems
        } else {
            (cells, contentSize, status) = list.cells(intersecting: firstScreen, limit: 500)
            itemCount = list.dataSource.snapshot().numberOfItems
        }
        // The generic page's toolbar: a form per action, with a field for each required parameter.
        let buttons = descriptor.actions.map { action -> [String: Any] in
            ["action": action.name, "title": action.buttonTitle,
             "url": "/demos/\(descriptor.name)/actions/\(action.name)",
             "fields": action.parameters.filter(\.required).map { parameter -> [String: Any] in
                 var field: [String: Any] = ["field": parameter.name, "label": parameter.description,
                                             "inputType": parameter.type == "integer" ? "number" : "text",
                                             "formID": "\(action.name)-\(parameter.name)"]
                 if let choices = parameter.choices, !choices.isEmpty {
                     field["choices"] = choices.map { ["choice": $0] }
                     field["hasChoices"] = true
                 }
                 return field
             }]
        }
        var context: [String: Any] = [
            "title": descriptor.title, "name": descriptor.name, "summary": descriptor.summary,
            "status": status, "listHeight": WireFrame.text(WireFrame.round(contentSize.height)),
            "sessionID": session.shareID.value,
            "buttons": buttons,
            "hasButtons": !buttons.isEmpty,
            "reorderable": descriptor.reorderable,
            "cells": cells.map { cell -> [String: Any] in
                ["id": cell.id, "kind": cell.kind.name, "section": cell.section, "isItem": cell.kind == .item, "html": cell.html, "frame": cell.frame.attribute,
                 "x": WireFrame.text(cell.frame.x), "y": WireFrame.text(cell.frame.y),
                 "w": WireFrame.text(cell.frame.w), "h": WireFrame.text(cell.frame.h),
                 "position": (cell.index ?? 0) + 1]
            },
            "itemCount": itemCount,
            "demos": demoSummaries(),
        ]
        if let example = descriptor.example { context["example"] = ["action": example.action, "body": example.body] }
        for (key, value) in preview?.values ?? list.demo.pageValues() { context[key] = value }
        // Without JavaScript the whole list reads page by page (the grid above shows one screen).
        let pages = max(1, (itemCount + Self.fallbackPageSize - 1) / Self.fallbackPageSize)
        let pageNumber = min(try Self.pageNumber(request.query["page"]), pages)
        let first = (pageNumber - 1) * Self.fallbackPageSize
        context["pageItems"] = list.itemHTML(of: preview?.snapshot, range: first..<min(first + Self.fallbackPageSize, itemCount))
            .map { ["html": $0] }
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
