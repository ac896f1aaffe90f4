import CompositionalLayout
import DiffableWeb

/// Apple's "Implementing Modern Collection Views" mountain search: type into the search box,
/// the grid filters and animates (../shared/SEEDS.md, 000).
///
/// The list is its query (``DerivedList``): every session typing the same letters makes the
/// same step, diffed once for all of them, and a restart derives the list again from the
/// saved query. Each mountain's cell is the catalog's, the same in every session (``SharedCells``).
public struct Mountains: BuiltInList, DerivedList, SharedCells, PageState, ItemData {
    public static let title = "Mountains"
    public static let summary = "Search the mountains; the grid filters and animates as you type."
    public static let pageTemplate = "demos/mountains"
    public static let cellTemplate = "cells/mountain"
    /// `?q=` of the no-JavaScript search form, shown without being written.
    public static let pageQuery: PageQuery? = PageQuery(name: "q", action: "search", parameter: "query")
    public static let section = "main"

    @Shared var catalog: MountainCatalog
    /// The query the list shows (at most 200 characters); empty shows every mountain.
    var query = ""

    public enum Action: WebListAction {
        case search(query: String?)

        public static let descriptions = [
            "search": "performQuery: show the mountains whose name contains the query, sorted by name",
            "search.query": "Case-insensitive text; empty shows all",
        ]
    }

    public struct Cell: Encodable {
        let name: String
        let height: String
    }

    /// What a script sees of a mountain: its height as a number.
    public struct Data: Encodable {
        let name: String
        let height: Int
        enum CodingKeys: String, CodingKey { case name, height = "height_m" }
    }

    public struct PageValues: Encodable {
        let query: String
    }

    public init() {}

    /// A list of `catalog` (tests).
    public init(catalog: MountainCatalog, query: String = "") {
        _catalog = Shared(wrappedValue: catalog)
        self.query = query
    }

    /// `performQuery`: the mountains whose name contains the query, sorted by name.
    public func derivedSnapshot() -> Snapshot<String, String> {
        // Fresh identifiers by construction: a catalog repeats no id.
        (try? Snapshot([Self.section: catalog.filtered(by: query).map(\.id)])) ?? Snapshot()
    }

    /// Apple's grid, adapting to its container as a section provider does with
    /// `layoutEnvironment.container.effectiveContentSize`: as many columns of at least
    /// `minimumColumnWidth` as fit, up to 3 (one below 590 px, a phone; two up to 880; three
    /// above); 10-px spacing between items and groups; 10-px section insets. Cells size
    /// themselves (`.estimated(rowHeight)`): a name that needs a third line makes its cell taller.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            let columns = Self.columns(forWidth: environment.container.width)
            let item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(Self.rowHeight)))
            var group = LayoutGroup.horizontal(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(Self.rowHeight)),
                subitem: item, count: columns)
            group.interItemSpacing = .fixed(10)
            var section = LayoutSection(group: group)
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

    /// Two lines of a name (the longest need them in a phone's column and in a third of a desktop's).
    static let rowHeight = 44.0

    public func cell(for item: String) -> Cell? {
        catalog.mountain(id: item).map { Cell(name: $0.name, height: "\($0.height.grouped) m") }
    }

    public func data(for item: String) -> Data? {
        catalog.mountain(id: item).map { Data(name: $0.name, height: $0.height) }
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) {
        switch action {
        case .search(let text): query = String((text ?? "").prefix(200))
        }
    }

    /// The items are a script's now: no query describes them.
    public mutating func didEditList() { query = "" }

    public func status(of list: Snapshot<String, String>) -> String {
        let count = list.numberOfItems
        if query.isEmpty { return "\(count.grouped) mountains" }
        switch count {
        case 0: return "No mountains match “\(query)”"
        case 1: return "1 mountain matches “\(query)”"
        default: return "\(count.grouped) mountains match “\(query)”"
        }
    }

    public var pageValues: PageValues { PageValues(query: query) }
}
