import MicroHTTP

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
    /// Where the demo's own templates live (its cells, its page), read after the app's, so an
    /// app can override them; `nil`: the app's directories have them.
    public var templatesDirectory: String?

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
