import Foundation
import Mustache

/// Renders pages and cells from the Mustache templates in `templates/` (HTML-escaped by
/// default: `{{value}}` escapes, `{{{html}}}` is reserved for HTML we rendered ourselves).
public struct Renderer: Sendable {
    let library: MustacheLibrary
    /// Rendered cells by content, shared by every session: a cell's HTML is a pure function of
    /// its template and values, and the same mountains show in every session.
    let cellCache = RenderCache(limit: 200_000)

    /// Loads every `*.mustache` under `directory`; names are relative paths without the
    /// extension (`cells/mountain`).
    public init(templatesDirectory directory: String) async throws {
        library = try await MustacheLibrary(directory: directory)
        for required in ["index", "not-found", "cells/mountain", "cells/number", "cells/header", "demos/mountains", "demos/numbers"]
        where library.getTemplate(named: required) == nil {
            throw RendererError.missingTemplate(required, directory: directory)
        }
    }

    /// Renders a template, or `nil` when there is no such template.
    func render(_ template: String, _ context: [String: Any]) -> String? {
        library.render(context, withTemplate: template)
    }

    /// A cell's inner HTML. A missing template renders as escaped text, never as nothing.
    func cell(_ content: CellContent) -> String {
        if let cached = cellCache[content] { return cached }
        let html = render(content.template, content.values) ?? HTMLEscaping.escape(content.values.values.sorted().joined(separator: " "))
        cellCache[content] = html
        return html
    }
}

public enum RendererError: Error, CustomStringConvertible {
    case missingTemplate(String, directory: String)
    public var description: String {
        switch self {
        case .missingTemplate(let name, let directory): "Template \(name).mustache not found in \(directory)"
        }
    }
}

enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// A bounded map from cell content to its HTML (emptied when full: simple, and a refill is
/// only a re-render).
final class RenderCache: Sendable {
    private let entries = Mutex<[CellContent: String]>([:])
    let limit: Int

    init(limit: Int) { self.limit = limit }

    subscript(content: CellContent) -> String? {
        get { entries.withLock { $0[content] } }
        set {
            entries.withLock { entries in
                if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
                entries[content] = newValue
            }
        }
    }
}

import Synchronization
