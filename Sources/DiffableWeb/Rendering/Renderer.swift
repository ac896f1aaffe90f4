import Foundation
import Mustache

/// Renders pages and cells from the Mustache templates in `templates/` (HTML-escaped by
/// default: `{{value}}` escapes, `{{{html}}}` is reserved for HTML we rendered ourselves).
public struct Renderer: Sendable {
    let library: MustacheLibrary

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
        render(content.template, content.values) ?? HTMLEscaping.escape(content.values.values.sorted().joined(separator: " "))
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
