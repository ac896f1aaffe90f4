import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

/// Apple's "Implementing Modern Collection Views" mountain search: type into the search box,
/// the grid filters and animates (../shared/SEEDS.md, 000).
public final class MountainsDemo: Demo {
    public static let section = "main"

    public static func descriptor(catalog: MountainCatalog) -> DemoDescriptor {
        let shared = MountainSearchCache(catalog: catalog)
        return DemoDescriptor(
            name: "mountains", title: "Mountains",
            summary: "Search \(catalog.mountains.count.grouped) mountains; the grid filters and animates as you type.",
            pageTemplate: "demos/mountains",
            cellTemplates: ["cells/mountain"],
            actions: [ActionDescriptor(name: "search", description: "performQuery: show the mountains whose name contains the query, sorted by name",
                                       parameters: [.init(name: "query", type: "string", required: false, description: "Case-insensitive text; empty shows all")])],
            example: ExampleRequest(action: "search", body: #"{"query":"ben"}"#),
            pageQuery: PageQuery(name: "q", action: "search", parameter: "query"),
            make: { MountainsDemo(shared: shared) })
    }

    let catalog: MountainCatalog
    let shared: MountainSearchCache
    /// The list's state: the query it shows, or, once a script edited the items directly
    /// (`edited`), none: the list is then an ordinary list until the next search.
    private struct Search: Equatable {
        var query = ""
        var edited = false
    }
    private let search = Mutex(Search())
    var query: String { search.withLock { $0.query } }

    public convenience init(catalog: MountainCatalog) { self.init(shared: MountainSearchCache(catalog: catalog)) }

    init(shared: MountainSearchCache) {
        self.shared = shared
        self.catalog = shared.catalog
    }

    public func initialSnapshot() -> Snapshot<String, String> { snapshot(for: "") }

    func snapshot(for filter: String) -> Snapshot<String, String> {
        shared.snapshot(for: filter, section: Self.section)
    }

    /// Apple's grid, adapting to its container as a section provider does with
    /// `layoutEnvironment.container.effectiveContentSize`: as many columns of at least
    /// `minimumColumnWidth` as fit, up to 3 (one below 590 px, a phone; two up to 880; three
    /// above); 10-px spacing between items and groups; 10-px section insets. Cells size
    /// themselves (`.estimated(rowHeight)`): a name that needs a third line makes its cell taller.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            let columns = Self.columns(forWidth: environment.container.width)
            // Self-sizing: a row is as tall as its tallest name needs (a browser measures it).
            let item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(Self.rowHeight)))
            let group = LayoutGroup.horizontal(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(Self.rowHeight)),
                subitem: item, count: columns)
            var withSpacing = group
            withSpacing.interItemSpacing = .fixed(10)
            var section = LayoutSection(group: withSpacing)
            section.interGroupSpacing = 10
            section.contentInsets = .uniform(10)
            return section
        }
    }

    /// The grid's columns for a container this wide: n columns need 20 + n·280 + (n − 1)·10 px.
    static func columns(forWidth width: Double) -> Int {
        max(1, min(3, Int((width - 20 + 10) / (minimumColumnWidth + 10))))
    }

    /// The narrowest column in which the longest name ("Beinn a' Ghlo - Braigh Coire
    /// Chruinn-bhalgain", 45 characters) fits on two lines beside its height.
    static let minimumColumnWidth = 280.0

    /// Two lines of a name (the longest need them in a phone's column and in a third of a
    /// desktop's).
    static let rowHeight = 44.0

    public func cell(for item: String) -> CellContent? { shared.cell(for: item) }

    public func data(for item: String) -> [String: String]? {
        catalog.mountain(id: item).map { ["name": $0.name, "height_m": String($0.height)] }
    }

    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    /// A mountain's cell is the catalog's, the same in every session.
    public var sharesCellContent: Bool { true }

    public func perform(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) {
        guard action == "search" else { throw .unknownAction(action) }
        let filter = Self.filter(parameters.string("query") ?? "")
        let previous = search.withLock { search in
            defer { search = Search(query: filter) }
            return search
        }
        // The step every session typing the same letters makes, diffed once for all of them
        // (from a list a script edited, there is no shared step: the whole result is applied).
        if !previous.edited, let step = shared.transition(from: previous.query, to: filter, section: Self.section, current: list.snapshot()) {
            list.apply(step, animatingDifferences: true)
        } else {
            list.apply(snapshot(for: filter), animatingDifferences: true)
        }
    }

    /// The list is its query (until a script edits its items): saved as the query, computed
    /// again on a restart.
    public var derivesList: Bool { !search.withLock { $0.edited } }

    public func derivedSnapshot() -> Snapshot<String, String>? {
        let search = search.withLock { $0 }
        return search.edited ? nil : snapshot(for: search.query)
    }

    /// The items are a script's now: no query describes them.
    public func didEditList() {
        search.withLock { $0 = Search(query: "", edited: true) }
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        Self.status(count: snapshot.numberOfItems, filter: query)
    }

    static func status(count: Int, filter: String) -> String {
        if filter.isEmpty { return "\(count.grouped) mountains" }
        switch count {
        case 0: return "No mountains match “\(filter)”"
        case 1: return "1 mountain matches “\(filter)”"
        default: return "\(count.grouped) mountains match “\(filter)”"
        }
    }

    public func pageValues() -> [String: String] { ["query": query] }

    public func persistentState() -> [String: String] {
        let search = search.withLock { $0 }
        return search.edited ? ["query": "", "edited": "true"] : ["query": search.query]
    }

    public func restore(state: [String: String]) {
        guard let saved = state["query"] else { return }
        search.withLock { $0 = Search(query: Self.filter(saved), edited: state["edited"] == "true") }
    }

    /// `?q=` of the no-JavaScript search form, shown without being written.
    public func pagePreview(query parameters: [String: String]) -> PagePreview? {
        guard let text = parameters["q"] else { return nil }
        let filter = Self.filter(text)
        let current = search.withLock { $0 }
        guard current.edited || filter != current.query else { return nil }
        let snapshot = snapshot(for: filter)
        return PagePreview(snapshot: snapshot, status: Self.status(count: snapshot.numberOfItems, filter: filter),
                           values: ["query": filter], action: "search", parameters: ["query": filter])
    }

    /// A query as searched: at most 200 characters.
    static func filter(_ text: String) -> String { String(text.prefix(200)) }
}
