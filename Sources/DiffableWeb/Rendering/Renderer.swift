import Foundation
import Mustache

/// Renders pages and cells from the Mustache templates in `templates/` (HTML-escaped by
/// default: `{{value}}` escapes, `{{{html}}}` is reserved for HTML we rendered ourselves).
public struct Renderer: Sendable {
    let library: MustacheLibrary
    /// Rendered cells by content, shared by every session: a cell's HTML is a pure function of
    /// its template and values, and the same mountains show in every session.
    let cellCache = RenderCache(limit: 200_000)

    /// The templates every app needs, whatever its demos.
    static let baseTemplates = ["index", "not-found", "demos/list"]

    /// Loads every `*.mustache` under each directory; names are relative paths without the
    /// extension (`cells/mountain`). A later directory's template replaces an earlier one of the
    /// same name (an app's own directory after the package's `templates/`).
    /// - Throws: ``RendererError`` when a template does not parse, or one of `required` (and
    ///   of `baseTemplates`) is in none of the directories.
    public init(templatesDirectories directories: [String], required: [String] = []) async throws {
        var library = try await MustacheLibrary(directory: directories.first ?? "templates")
        for directory in directories.dropFirst() {
            for (name, text) in try Self.templateFiles(in: directory) {
                do {
                    try library.register(text, named: name)
                } catch {
                    throw RendererError.invalidTemplate(name, directory: directory, reason: "\(error)")
                }
            }
        }
        for name in Self.baseTemplates + required where library.getTemplate(named: name) == nil {
            throw RendererError.missingTemplate(name, directories: directories)
        }
        self.library = library
    }

    /// `*.mustache` files under `directory`, by name (the relative path without the extension).
    static func templateFiles(in directory: String) throws -> [(String, String)] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        guard let paths = FileManager.default.enumerator(atPath: root.path) else {
            throw RendererError.missingDirectory(directory)
        }
        var files: [(String, String)] = []
        for case let path as String in paths where path.hasSuffix(".mustache") {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            files.append((String(path.dropLast(".mustache".count)), text))
        }
        return files
    }

    /// Renders a template, or `nil` when there is no such template.
    func render(_ template: String, _ context: [String: Any]) -> String? {
        library.render(context, withTemplate: template)
    }

    /// A cell's inner HTML. A missing template renders as escaped text, never as nothing.
    func cell(_ content: CellContent) -> String {
        if let cached = cellCache[content] { return cached }
        var html = render(content.template, content.values) ?? HTMLEscaping.escape(content.values.values.sorted().joined(separator: " "))
        if !content.accessories.isEmpty { html = accessorized(html, content) }
        cellCache[content] = html
        return html
    }
}

public enum RendererError: Error, CustomStringConvertible {
    case missingTemplate(String, directories: [String])
    case invalidTemplate(String, directory: String, reason: String)
    case missingDirectory(String)
    public var description: String {
        switch self {
        case .missingTemplate(let name, let directories):
            "Template \(name).mustache not found in \(directories.joined(separator: " or "))"
        case .invalidTemplate(let name, let directory, let reason): "Template \(name).mustache in \(directory) does not parse: \(reason)"
        case .missingDirectory(let directory): "No templates directory at \(directory)"
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

    init(limit: Int) {
        self.limit = limit
        DroppableCaches.shared.add(self)
    }

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

extension RenderCache: DroppableCache {
    func dropAll() -> Int {
        entries.withLock { entries in
            defer { entries = [:] }
            return entries.count * Self.entryBytes
        }
    }

    var heldBytes: Int { entries.withLock { $0.count } * Self.entryBytes }

    /// What an entry costs, roughly (a cell's content and its HTML).
    static let entryBytes = 400
}
