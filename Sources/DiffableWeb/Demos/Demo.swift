import CompositionalLayout
import DiffableDataSources
import MicroHTTP

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

    /// What a header or footer (or another supplementary view of the layout) shows, or `nil`
    /// for none.
    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent?

    /// Runs an action, usually by applying a new snapshot to `dataSource`.
    /// - Throws: ``ActionError`` for unknown actions and bad parameters; nothing changes then.
    func perform(_ action: String, parameters: ActionParameters, on dataSource: DiffableDataSource<String, String>) throws(ActionError)

    /// Runs an action as ``perform(_:parameters:on:)`` does, and returns what its answer adds
    /// to `{"version": …}` (a reorder's transaction), or `nil`. By default it calls `perform`.
    func performReporting(_ action: String, parameters: ActionParameters, on dataSource: DiffableDataSource<String, String>) throws(ActionError) -> ActionReport?

    /// A one-line summary of the list for screen readers and the page (`aria-live`): what a
    /// person cares about ("1,467 mountains", "5 items"), no developer counters.
    func status(of snapshot: Snapshot<String, String>) -> String

    /// The list's counters for people scripting it ("assets: 12 loaded, 0 loading…"): shown in
    /// the page's "Script this session" panel and the API's session description, sent as
    /// `"details"` in events. Default: none (an empty string).
    func details(of snapshot: Snapshot<String, String>) -> String

    /// The list's view state beyond its items (the current query, layout, whether a publisher
    /// is paused): the page template's values, and the `"state"` of every `snapshot` and
    /// `changeset` event, so that a page's controls show a change a script made. The page also
    /// gets `<key>_<value>` as `true` for each (`layout_grid`), for a segmented control's
    /// `aria-pressed`: an empty string is not false in a template.
    func pageValues() -> [String: String]

    /// What a page URL's query asks to see (the no-JavaScript search form submits by GET),
    /// computed aside: a GET writes nothing. `nil` when the page shows the list as it is. The
    /// page marks a preview, and the client makes it real with its own POST.
    func pagePreview(query: [String: String]) -> PagePreview?

    /// Called once, when the session's list is made (after its initial snapshot is applied),
    /// with the handle for writes no request asks for (loads that finish, timers).
    func attach(_ list: ListHandle)

    /// Whether ``windowDidChange(_:)`` should be called (it costs a lookup per cell in the window).
    var observesWindows: Bool { get }

    /// A stream's window opened, moved, or followed a change (called outside the writer: write
    /// through the ``ListHandle``, never wait for it here). For prefetching and pagination.
    func windowDidChange(_ window: WindowItems)

    /// The number of open streams changed (a publisher that runs only while someone watches).
    func streamCountDidChange(_ count: Int)

    /// What the demo keeps besides its snapshot, for a server restart (a query, a counter, a
    /// layout): saved with the snapshot after every change. Default: nothing.
    func persistentState() -> [String: String]

    /// Takes back a saved state (before the list's saved snapshot is restored), and the state
    /// from before a write whose apply the list limits refused (100,000 items, 1,000 sections),
    /// so that the refused write leaves nothing behind (a batch counted, numbers reserved).
    /// Default: nothing.
    func restore(state: [String: String])

    /// Whether the list is saved at all (false for state the store cannot hold yet).
    var persistsList: Bool { get }

    /// Whether ``cell(for:)`` depends on the item alone, the same in every session (a catalog's
    /// items): then what a shared transition renders for a window is shared by every session
    /// making it (see `TransitionCache`). `false` by default: a demo whose cells show
    /// per-session state (a like, a loaded image) must not share them.
    var sharesCellContent: Bool { get }
}

extension Demo {
    /// By default, what the cell shows.
    public func data(for item: String) -> [String: String]? { cell(for: item)?.values }

    public func performReporting(_ action: String, parameters: ActionParameters, on dataSource: DiffableDataSource<String, String>) throws(ActionError) -> ActionReport? {
        try perform(action, parameters: parameters, on: dataSource)
        return nil
    }

    /// By default a list has no counters.
    public func details(of snapshot: Snapshot<String, String>) -> String { "" }

    /// By default a page shows the list as it is.
    public func pagePreview(query: [String: String]) -> PagePreview? { nil }

    /// By default a demo changes its list only when asked.
    public func attach(_ list: ListHandle) {}
    public var observesWindows: Bool { false }
    public func windowDidChange(_ window: WindowItems) {}
    public func streamCountDidChange(_ count: Int) {}
    public func persistentState() -> [String: String] { [:] }
    public func restore(state: [String: String]) {}
    public var persistsList: Bool { true }
    public var sharesCellContent: Bool { false }
}

/// What a cell on the page is: an item of the snapshot, or a supplementary view the layout
/// adds (a section's header or footer, or another element kind such as a badge). On the wire
/// and in the page it is a string: `item`, `header`, `footer`, or the element kind.
public enum CellKind: Sendable, Hashable, Codable, CustomStringConvertible {
    case item
    case header
    case footer
    /// Another element kind of the layout's boundary supplementary items.
    case supplementary(String)

    /// The kind of a layout's supplementary element (`LayoutElementKind.sectionHeader` is `header`).
    public init(elementKind: String) {
        switch elementKind {
        case LayoutElementKind.sectionHeader: self = .header
        case LayoutElementKind.sectionFooter: self = .footer
        default: self = .supplementary(elementKind)
        }
    }

    /// The name on the wire, which is also the layout's element kind for a supplementary view.
    public var name: String {
        switch self {
        case .item: "item"
        case .header: LayoutElementKind.sectionHeader
        case .footer: LayoutElementKind.sectionFooter
        case .supplementary(let kind): kind
        }
    }

    public var description: String { name }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = name == "item" ? .item : CellKind(elementKind: name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// What an action's JSON answer adds to its version: members as JSON text
/// (`"transaction":{…}`), written by the demo with `JSONEncoder`.
public struct ActionReport: Sendable, Equatable {
    /// Object members, without the braces: `"position":3,"transaction":{…}`.
    public var members: String
    public init(members: String) { self.members = members }

    /// A report of `value`'s encoded members (an `Encodable` struct's properties).
    public init<Value: Encodable>(encoding value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        members = text.count > 2 ? String(text.dropFirst().dropLast()) : ""
    }
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

/// What a demo is, before any session has one: everything the web layer needs to serve it,
/// so that a new list is one file (a `Demo` type and its descriptor) plus its cell template.
///
/// ```swift
/// DemoDescriptor(name: "groceries", title: "Groceries", summary: "A shopping list",
///                cellTemplates: ["cells/grocery"],
///                actions: [ActionDescriptor(name: "add", description: "Add an item")],
///                make: { GroceriesDemo() })
/// ```
public struct DemoDescriptor: Sendable {
    /// The URL name: `/demos/<name>`.
    public var name: String
    public var title: String
    public var summary: String
    /// The page template. The default, `demos/list`, shows the list with a button for every
    /// action that needs no parameter.
    public var pageTemplate: String
    /// The templates the demo's cells, headers and footers use (checked when the app starts).
    public var cellTemplates: [String]
    /// The actions a script or a button can run.
    public var actions: [ActionDescriptor]
    /// The request the page's "Script this session" panel shows; by default the first action
    /// with an empty body.
    public var example: ExampleRequest?
    /// How a page URL's query names an action's parameter (the no-JavaScript form submits by
    /// GET, and a form POST of that action redirects back to such a URL); `nil` for none.
    public var pageQuery: PageQuery?
    /// Files the demo's cells show (images), served at `/demos/<name>/assets/<file>` with an
    /// `ETag`; `nil` for none.
    public var assets: DemoAssets?
    /// Whether people reorder the items by hand (UIKit's reordering): the generic page shows
    /// an Edit button, drag handles and Alt+↑/↓, which run the action `reorder`.
    public var reorderable: Bool
    /// Makes the per-session demo.
    public var make: @Sendable () -> any Demo
    /// What to try first, in one short sentence for the index page ("Type “ann”…"); empty
    /// for none.
    public var tryThis: String = ""
    /// A small picture of the demo for the index page: a path the server serves
    /// (`/images/demos/mountains.svg`), or `nil` for none.
    public var picture: String?

    public init(name: String, title: String, summary: String, pageTemplate: String = "demos/list",
                cellTemplates: [String], actions: [ActionDescriptor], example: ExampleRequest? = nil,
                pageQuery: PageQuery? = nil, assets: DemoAssets? = nil, reorderable: Bool = false,
                make: @escaping @Sendable () -> any Demo) {
        self.name = name
        self.title = title
        self.summary = summary
        self.pageTemplate = pageTemplate
        self.cellTemplates = cellTemplates
        self.actions = actions
        self.example = example ?? actions.first.map { ExampleRequest(action: $0.name, body: "{}") }
        self.pageQuery = pageQuery
        self.assets = assets
        self.reorderable = reorderable
        self.make = make
    }

    /// Every template this demo needs: its page and its cells.
    public var templates: [String] { [pageTemplate] + cellTemplates }
}

/// Where a demo's assets come from.
public enum DemoAssets: Sendable {
    /// The files `names` of a directory (conditional GET by `ETag` and `Last-Modified`); other
    /// files there are not served.
    case directory(String, names: Set<String>)
    /// Made on request by name; `nil` for no such asset.
    case generated(@Sendable (String) -> DemoAsset?)
}

/// A generated asset: its bytes and media type (the `ETag` is their hash).
public struct DemoAsset: Sendable {
    public var contentType: String
    public var bytes: [UInt8]
    public init(contentType: String, bytes: [UInt8]) {
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// An action call shown as an example (`curl … -d body …/actions/<action>`).
public struct ExampleRequest: Sendable, Equatable {
    public var action: String
    /// A JSON object.
    public var body: String
    public init(action: String, body: String) {
        self.action = action
        self.body = body
    }
}

/// A page query parameter that stands for an action's parameter: `/demos/mountains?q=ben`
/// shows what `search` with `query: "ben"` would (see ``Demo/pagePreview(query:)``).
public struct PageQuery: Sendable, Equatable {
    /// The URL's query name (`q`).
    public var name: String
    /// The action it previews (`search`) and that action's parameter (`query`).
    public var action: String
    public var parameter: String
    public init(name: String, action: String, parameter: String) {
        self.name = name
        self.action = action
        self.parameter = parameter
    }

    /// The page URL's query after a form posted `action` with `parameters`, or `nil` when this
    /// query does not describe it.
    func queryItem(after action: String, _ parameters: ActionParameters) -> QueryItem? {
        guard action == self.action, let value = parameters.string(parameter) else { return nil }
        return QueryItem(name: name, value: value)
    }
}

/// One action of a demo and its parameters (for `GET …/actions` and the docs).
public struct ActionDescriptor: Sendable, Codable, Equatable {
    public struct Parameter: Sendable, Codable, Equatable {
        public var name: String
        public var type: String
        public var required: Bool
        public var description: String
        /// The values it takes, when they are a fixed set (the generic page shows a menu).
        public var choices: [String]?
        /// A position in the list (0-based here, as in the API): a page's form shows it counting
        /// from 1, as people count. Not part of the API's description.
        public var position: Bool = false
        public init(name: String, type: String, required: Bool, description: String, choices: [String]? = nil, position: Bool = false) {
            self.name = name; self.type = type; self.required = required; self.description = description
            self.choices = choices
            self.position = position
        }
        private enum CodingKeys: String, CodingKey { case name, type, required, description, choices }
    }
    public var name: String
    public var description: String
    public var parameters: [Parameter]
    /// It changes only what a person is looking at (a search query): with a store, its changes
    /// are saved within 250 ms, coalesced, rather than before the answer.
    public var viewOnly: Bool
    public init(name: String, description: String, parameters: [Parameter] = [], viewOnly: Bool = false) {
        self.name = name; self.description = description; self.parameters = parameters; self.viewOnly = viewOnly
    }

    private enum CodingKeys: String, CodingKey { case name, description, parameters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name),
                  description: try container.decode(String.self, forKey: .description),
                  parameters: try container.decode([Parameter].self, forKey: .parameters))
    }

    /// The label of the action's button on a page: `removeLast` → “Remove last”.
    public var buttonTitle: String {
        var words: [String] = []
        for character in name {
            if character.isUppercase || words.isEmpty { words.append(String(character).lowercased()) } else { words[words.count - 1].append(character) }
        }
        guard let first = words.first else { return name }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
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
    /// Parameters that are lists of strings (a JSON array).
    public var lists: [String: [String]]
    public init(_ values: [String: String] = [:], lists: [String: [String]] = [:]) {
        self.values = values
        self.lists = lists
    }

    public func string(_ name: String) -> String? { values[name] }

    /// A list of strings: a JSON array, or (from a form's text area) one string per line,
    /// blank lines dropped. - Throws: ``ActionError/missingParameter(_:)`` when absent.
    public func requiredStrings(_ name: String) throws(ActionError) -> [String] {
        if let list = lists[name] { return list }
        guard let text = values[name] else { throw .missingParameter(name) }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

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
    /// Well-formed, but refused (422): `code` names the rule, `message` the culprit.
    case unprocessable(code: String, message: String)
    case snapshot(SnapshotError)

    public var code: String {
        switch self {
        case .unknownAction: "unknown_action"
        case .missingParameter: "missing_parameter"
        case .invalidParameter: "invalid_parameter"
        case .unprocessable(let code, _): code
        case .snapshot(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .unknownAction(let name): "Unknown action: \(name)"
        case .missingParameter(let name): "Missing parameter: \(name)"
        case .invalidParameter(let name, let why): "Invalid parameter \(name): \(why)"
        case .unprocessable(_, let message): message
        case .snapshot(let error): error.description
        }
    }
}

import Foundation
