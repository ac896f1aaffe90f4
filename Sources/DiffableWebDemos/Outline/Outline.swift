import CompositionalLayout
import DiffableWeb

/// Apple's outline sample ("Implementing Modern Collection Views": a sidebar of expandable
/// rows) on our `SectionSnapshot`: the mountain catalog by height, three levels deep (see
/// `HeightOutline`).
///
/// Everything goes through the data source, as in UIKit (``ExpandableOutline``): `expand` and
/// `collapse` ask the section snapshot handlers, which are this list's methods; children are
/// loaded lazily by `snapshotForExpandingParent` (the first snapshot holds only the top level).
/// `shouldExpandItem` refuses a mountain (it has nothing to show: 422 `not_expandable`);
/// `shouldCollapseItem` allows every parent. Each call is counted (``HandlerCounts``).
///
/// It is a sidebar with single selection that follows the focus (`selectionFollowsFocus`): an
/// arrow key selects the row it lands on, and `didSelect` shows that row in the pane above the
/// list, as a split view's sidebar shows its selection in the secondary column. The primary
/// action (a click, Return or Space: a person's explicit choice, never a focus move) toggles a
/// band, as a sidebar's header rows do (`primaryAction(for:)`).
public struct Outline: BuiltInList, ExpandableOutline, SelectableList, PageState, ItemData, UpgradesUntypedState {
    public static let title = "Outline"
    public static let summary = "Apple’s outline sample: the mountains by height, three levels deep; children load when a band first expands."
    public static let pageTemplate = "demos/outline"
    public static let cellTemplate = "cells/outline-row"
    public static let section = "outline"
    public static var outlineSection: String { section }

    /// How often each handler ran (for the status, the API's item data and the tests).
    public struct HandlerCounts: Sendable, Equatable, TransientValue {
        public var shouldExpand = 0
        public var willExpand = 0
        public var shouldCollapse = 0
        public var willCollapse = 0
        /// `snapshotForExpandingParent` calls that loaded children (the first expand of a parent).
        public var loads = 0
        /// `snapshotForExpandingParent` calls that kept the children already loaded.
        public var reuses = 0
        public init() {}
        public init(shouldExpand: Int, willExpand: Int, shouldCollapse: Int, willCollapse: Int, loads: Int, reuses: Int) {
            (self.shouldExpand, self.willExpand, self.shouldCollapse) = (shouldExpand, willExpand, shouldCollapse)
            (self.willCollapse, self.loads, self.reuses) = (willCollapse, loads, reuses)
        }
    }

    @Shared var tree: HeightOutline
    /// The parents expanded in the data source's outline (what rows show): with the saved rows,
    /// the whole outline (the tree gives each parent's children).
    public internal(set) var expanded: Set<String> = []
    @Transient public internal(set) var counts = HandlerCounts()
    /// The row a person last selected (`didSelect`): the pane shows it. A script's selection
    /// calls no `didSelect` and leaves the pane as it was, as in UIKit.
    public internal(set) var shown: String?

    public enum Action: WebListAction {
        case expand(item: String)
        case collapse(item: String)
        case toggle(item: String)

        static let item = "A band (h8000-8999, h8800-8899) or a mountain id (m0001) shown in the outline"
        public static let descriptions = [
            "expand": "Expand a band: its children load on first expand and animate in", "expand.item": item,
            "collapse": "Collapse a band: its descendants animate out (and stay loaded)", "collapse.item": item,
            "toggle": "Expand a collapsed band, collapse an expanded one", "toggle.item": item,
        ]
    }

    public struct Cell: Encodable {
        let id: String, label: String, detail: String, level: Int, position: Int, siblings: Int, kind: String
        var parentID: String? = nil
        var isParent: Bool? = nil
        var expanded: Bool? = nil
        /// The no-JavaScript form says what it does: a double submit cannot undo itself.
        var formAction: String? = nil
        var formURL: String? = nil
    }

    public struct Data: Encodable {
        let label: String, level: Int, kind: String, position: Int, siblings: Int
        var parent: String? = nil
        var height: Int? = nil
        var expanded: Bool? = nil
        var mountains: Int? = nil
    }

    /// The pane above the list: the row the sidebar shows.
    public struct PageValues: Encodable {
        let shownTitle: String
        let shownSummary: String
    }

    public init() {}

    /// The parents a session expanded, saved by the untyped demo as one space-separated list.
    public init?(untypedState saved: [String: String]) {
        expanded = Set((saved["expanded"] ?? "").split(separator: " ").map(String.init).filter { tree.node($0) != nil })
    }

    /// The descriptor of the outline of `catalog`.
    public static func descriptor(catalog: MountainCatalog) throws -> DemoDescriptor {
        try descriptor(sharing: [HeightOutline(catalog: catalog)])
    }

    /// The top level only: children arrive through `snapshotForExpandingParent`.
    public func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot([Self.section: tree.roots]) }

    /// A sidebar list: one full-width row per item.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .sidebar), layoutEnvironment: environment)
        }
    }

    public func cell(for item: String) -> Cell? {
        guard let node = tree.node(item) else { return nil }
        var cell = Cell(id: node.id, label: node.label, detail: node.detail, level: node.level, position: node.position,
                        siblings: node.siblings, kind: node.kind.rawValue, parentID: node.parent)
        if node.kind != .mountain {
            let open = expanded.contains(item)
            cell.isParent = true
            cell.expanded = open
            cell.formAction = open ? "collapse" : "expand"
            cell.formURL = "/demos/\(Self.name)/actions/" + (open ? "collapse" : "expand")
        }
        return cell
    }

    public func data(for item: String) -> Data? {
        guard let node = tree.node(item) else { return nil }
        var data = Data(label: node.label, level: node.level, kind: node.kind.rawValue, position: node.position, siblings: node.siblings,
                        parent: node.parent)
        if node.kind == .mountain {
            data.height = node.height
        } else {
            data.expanded = expanded.contains(item)
            data.mountains = node.mountainCount
        }
        return data
    }

    /// Every action is an expand or a collapse, run through the data source.
    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) {}

    public func disclosure(for action: Action) -> OutlineDisclosure? {
        switch action {
        case .expand(let item): .expand(item)
        case .collapse(let item): .collapse(item)
        case .toggle(let item): .toggle(item)
        }
    }

    /// The top level and, for a restored state, its expanded parents' children in tree order
    /// (a parent is expanded only under expanded ancestors, so the rows are the saved ones).
    public func initialOutline() -> SectionSnapshot<String> {
        var outline = SectionSnapshot<String>()
        try? outline.append(tree.roots)  // unique by construction: cannot fail
        var parents = tree.roots
        while let parent = parents.first {
            parents.removeFirst()
            guard expanded.contains(parent), let node = tree.node(parent), !node.children.isEmpty else { continue }
            try? outline.append(node.children, to: parent)
            try? outline.expand([parent])
            parents.append(contentsOf: node.children)
        }
        return outline
    }

    public mutating func shouldExpand(_ item: String) -> Bool {
        counts.shouldExpand += 1
        return isExpandable(item)
    }

    public mutating func willExpand(_ item: String) {
        counts.willExpand += 1
        expanded.insert(item)
    }

    public mutating func shouldCollapse(_ item: String) -> Bool {
        counts.shouldCollapse += 1
        return true
    }

    public mutating func willCollapse(_ item: String) {
        counts.willCollapse += 1
        expanded.remove(item)
    }

    /// The children of `parent`, loaded on its first expand; a later expand keeps what is there
    /// (and so which of them were expanded).
    public mutating func snapshotForExpandingParent(_ parent: String, current: SectionSnapshot<String>) -> SectionSnapshot<String> {
        if let loaded = try? current.children(of: parent), !loaded.isEmpty {
            counts.reuses += 1
            return current
        }
        guard let node = tree.node(parent), !node.children.isEmpty else { return current }
        var subtree = SectionSnapshot<String>()
        do {
            try subtree.append([parent])
            try subtree.append(node.children, to: parent)
        } catch {
            return current  // unique by construction: cannot fail
        }
        counts.loads += 1
        return subtree
    }

    public mutating func outlineDidChange(_ outline: SectionSnapshot<String>) {
        expanded = Set(outline.items.lazy.filter { outline.isExpanded($0) })
    }

    public func describe(_ item: String) -> String {
        tree.node(item).map { "“\($0.label)” (\(item))\($0.kind == .mountain ? ", a mountain," : "")" } ?? item
    }

    public func isExpandable(_ item: String) -> Bool { tree.node(item).map { $0.kind != .mountain } ?? false }

    public func notInOutlineReason(_ item: String) -> String {
        tree.node(item)?.parent.flatMap { tree.node($0) }.map { "expand “\($0.label)” first" }
            ?? "the section was replaced through the snapshot API"
    }

    // MARK: Selection

    public var selectionSettings: SelectionSettings { SelectionSettings(selectionFollowsFocus: true) }

    public mutating func didSelect(_ item: String) { shown = item }

    /// A band's primary action toggles it (through the data source, animated); a mountain's is
    /// its selection alone.
    public func primaryAction(for item: String) -> Action? { isExpandable(item) ? .toggle(item: item) : nil }

    public var pageValues: PageValues {
        guard let shown, let node = tree.node(shown) else {
            return PageValues(shownTitle: "Nothing selected",
                              shownSummary: "Select a row: ↑ and ↓ move the selection, a click or Return on a band opens it.")
        }
        let parent = node.parent.flatMap { tree.node($0) }
        switch node.kind {
        case .mountain:
            return PageValues(shownTitle: node.label, shownSummary: "\(node.height.grouped) m · in \(parent?.label ?? "the catalog")")
        case .band, .range:
            let count = node.mountainCount
            let within = parent.map { " · within \($0.label)" } ?? ""
            return PageValues(shownTitle: node.label, shownSummary: "\(count.grouped) \(count == 1 ? "mountain" : "mountains")\(within)")
        }
    }

    public func status(of list: Snapshot<String, String>) -> String {
        let rows = list.numberOfItems
        return "\(rows.grouped) \(rows == 1 ? "row" : "rows") · \(expanded.count) expanded"
    }

    /// How often children were loaded (`snapshotForExpandingParent`), for scripts.
    public func details(of list: Snapshot<String, String>) -> String {
        "children loaded \(counts.loads) \(counts.loads == 1 ? "time" : "times")"
    }
}
