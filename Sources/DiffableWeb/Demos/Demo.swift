import CompositionalLayout
import DiffableDataSources

/// A list a person can open in the browser and a script can drive over HTTP.
///
/// A demo is the only demo-specific code in the web layer: where its data comes from,
/// how it is laid out, how a cell renders, and what its actions do. Everything else —
/// sessions, the changeset stream, layout diffs, pages, the client — is shared, so a new
/// demo is a new type conforming to `Demo` and a cell template.
///
/// One instance lives per session (it holds that session's state, e.g. the query), created
/// by ``DemoDescriptor/make``. Identifiers are strings on the wire, so both snapshots'
/// identifier types are `String`.
public protocol Demo: AnyObject, Sendable {
    /// The snapshot a new session starts with.
    func initialSnapshot() -> Snapshot<String, String>

    /// The layout, asked again whenever the viewport changes (so it can adapt columns).
    func layout() -> CompositionalLayout

    /// What a cell shows: a template under `templates/` and its values (HTML-escaped by the template).
    func cell(for item: String) -> CellContent?

    /// The data a script sees for an item (`GET …/snapshot`); `nil` when the demo has no such item.
    func data(for item: String) -> [String: String]?

    /// What a header or footer shows, or `nil` for none.
    func supplementary(kind: String, section: String, in snapshot: Snapshot<String, String>) -> CellContent?

    /// Runs an action, usually by applying a new snapshot to `dataSource`.
    /// - Throws: ``ActionError`` for unknown actions and bad parameters; nothing changes then.
    func perform(_ action: String, parameters: ActionParameters, on dataSource: DiffableDataSource<String, String>) throws(ActionError)

    /// A one-line summary of the list for screen readers and the page (`aria-live`).
    func status(of snapshot: Snapshot<String, String>) -> String

    /// Values the demo's page template needs beyond the list (e.g. the current query).
    func pageValues() -> [String: String]

    /// What a page URL's query asks to see (the no-JavaScript search form submits by GET),
    /// computed aside: a GET writes nothing. `nil` when the page shows the list as it is. The
    /// page marks a preview, and the client makes it real with its own POST.
    func pagePreview(query: [String: String]) -> PagePreview?
}

extension Demo {
    /// By default, what the cell shows.
    public func data(for item: String) -> [String: String]? { cell(for: item)?.values }

    /// By default a page shows the list as it is.
    public func pagePreview(query: [String: String]) -> PagePreview? { nil }
}

/// A page's view of a list that was not written: see ``Demo/pagePreview(query:)``.
public struct PagePreview: Sendable {
    public var snapshot: Snapshot<String, String>
    public var status: String
    /// Replaces ``Demo/pageValues()`` on the page.
    public var values: [String: String]
    /// The action (and its parameters) that makes the preview real, posted by the client.
    public var action: String
    public var parameters: [String: String]

    public init(snapshot: Snapshot<String, String>, status: String, values: [String: String],
                action: String, parameters: [String: String]) {
        self.snapshot = snapshot
        self.status = status
        self.values = values
        self.action = action
        self.parameters = parameters
    }
}

/// What a demo is, before any session has one.
public struct DemoDescriptor: Sendable {
    /// The URL name: `/demos/<name>`.
    public var name: String
    public var title: String
    public var summary: String
    /// The page template under `templates/demos/`.
    public var pageTemplate: String
    /// The actions a script or a button can run.
    public var actions: [ActionDescriptor]
    /// Makes the per-session demo.
    public var make: @Sendable () -> any Demo

    public init(name: String, title: String, summary: String, pageTemplate: String,
                actions: [ActionDescriptor], make: @escaping @Sendable () -> any Demo) {
        self.name = name
        self.title = title
        self.summary = summary
        self.pageTemplate = pageTemplate
        self.actions = actions
        self.make = make
    }
}

/// One action of a demo and its parameters (for `GET …/actions` and the docs).
public struct ActionDescriptor: Sendable, Codable, Equatable {
    public struct Parameter: Sendable, Codable, Equatable {
        public var name: String
        public var type: String
        public var required: Bool
        public var description: String
        public init(name: String, type: String, required: Bool, description: String) {
            self.name = name; self.type = type; self.required = required; self.description = description
        }
    }
    public var name: String
    public var description: String
    public var parameters: [Parameter]
    public init(name: String, description: String, parameters: [Parameter] = []) {
        self.name = name; self.description = description; self.parameters = parameters
    }
}

/// A cell's template and the values it fills in.
///
/// Its hash is computed once, when it is made: the render cache looks contents up on every
/// cell an event carries, and hashing a dictionary of strings each time was measurable.
public struct CellContent: Sendable, Hashable {
    public let template: String
    public let values: [String: String]
    private let hash: Int

    public init(template: String, values: [String: String]) {
        self.template = template
        self.values = values
        var hasher = Hasher()
        hasher.combine(template)
        hasher.combine(values)
        hash = hasher.finalize()
    }

    public static func == (lhs: CellContent, rhs: CellContent) -> Bool {
        lhs.hash == rhs.hash && lhs.template == rhs.template && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// An action's parameters as strings (from JSON or a form), with typed accessors that
/// throw a clear ``ActionError`` rather than trapping.
public struct ActionParameters: Sendable {
    public var values: [String: String]
    public init(_ values: [String: String] = [:]) { self.values = values }

    public func string(_ name: String) -> String? { values[name] }

    public func requiredString(_ name: String) throws(ActionError) -> String {
        guard let value = values[name] else { throw .missingParameter(name) }
        return value
    }

    /// An integer parameter within `range`, or `defaultValue` when absent.
    public func int(_ name: String, default defaultValue: Int? = nil, in range: ClosedRange<Int>) throws(ActionError) -> Int {
        guard let text = values[name] else {
            if let defaultValue { return defaultValue }
            throw .missingParameter(name)
        }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw .invalidParameter(name, "must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}

/// Why an action was refused.
public enum ActionError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownAction(String)
    case missingParameter(String)
    case invalidParameter(String, String)
    case snapshot(SnapshotError)

    public var code: String {
        switch self {
        case .unknownAction: "unknown_action"
        case .missingParameter: "missing_parameter"
        case .invalidParameter: "invalid_parameter"
        case .snapshot(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .unknownAction(let name): "Unknown action: \(name)"
        case .missingParameter(let name): "Missing parameter: \(name)"
        case .invalidParameter(let name, let why): "Invalid parameter \(name): \(why)"
        case .snapshot(let error): error.description
        }
    }
}

import Foundation
