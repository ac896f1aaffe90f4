import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Synchronization

/// Apple's outline sample ("Implementing Modern Collection Views": a sidebar of expandable
/// rows) on our `SectionSnapshot`: the mountain catalog by height, three levels deep (see
/// ``HeightOutline``).
///
/// Everything goes through the data source, as in UIKit: the section's outline is applied with
/// `apply(_:to:)`; `expand` and `collapse` call the data source's, which ask the
/// ``SectionSnapshotHandlers``; children are loaded lazily by `snapshotForExpandingParent`
/// (the first snapshot holds only the top level). The disclosure state lives in the data
/// source, so it survives a reload or a reconnect.
///
/// The handlers' rules: `shouldExpandItem` refuses a mountain (it has nothing to show: the
/// action answers 422 `not_expandable`); `shouldCollapseItem` allows every parent. Each call
/// is counted (``HandlerCounts``).
///
/// A row's disclosure (`aria-expanded`) is part of its cell, so after an expand or a collapse
/// the parent is reconfigured by a second apply: the first one inserts or deletes the
/// children (animated), the second updates the parent's row in place.
public final class OutlineDemo: Demo {
    public static let section = "outline"
    public static let name = "outline"

    public static func descriptor(catalog: MountainCatalog) -> DemoDescriptor {
        let tree = SharedTree(catalog: catalog)
        let item = ActionDescriptor.Parameter(name: "item", type: "string", required: true,
                                              description: "A band (h8000-8999, h8800-8899) or a mountain id (m0001) shown in the outline")
        return DemoDescriptor(
            name: name, title: "Outline",
            summary: "Apple’s outline sample: the mountains by height, three levels deep; children load when a band first expands.",
            pageTemplate: "demos/outline",
            cellTemplates: ["cells/outline-row"],
            actions: [
                ActionDescriptor(name: "expand", description: "Expand a band: its children load on first expand and animate in", parameters: [item]),
                ActionDescriptor(name: "collapse", description: "Collapse a band: its descendants animate out (and stay loaded)", parameters: [item]),
                ActionDescriptor(name: "toggle", description: "Expand a collapsed band, collapse an expanded one", parameters: [item]),
            ],
            example: ExampleRequest(action: "expand", body: #"{"item":"h8000-8999"}"#),
            make: { OutlineDemo(tree: tree.tree) })
    }

    /// The tree, built when a session first needs it and then shared: an app that never shows
    /// the outline (every test app builds the demo table) does not pay for it.
    private final class SharedTree: Sendable {
        private let catalog: MountainCatalog
        private let built = Mutex<HeightOutline?>(nil)
        init(catalog: MountainCatalog) { self.catalog = catalog }
        var tree: HeightOutline {
            built.withLock { built in
                if let built { return built }
                let tree = HeightOutline(catalog: catalog)
                built = tree
                return tree
            }
        }
    }

    /// How often each handler ran (for the status, the API's item data and the tests).
    public struct HandlerCounts: Sendable, Equatable {
        public var shouldExpand = 0
        public var willExpand = 0
        public var shouldCollapse = 0
        public var willCollapse = 0
        /// `snapshotForExpandingParent` calls that loaded children (the first expand of a parent).
        public var loads = 0
        /// `snapshotForExpandingParent` calls that kept the children already loaded.
        public var reuses = 0
    }

    private struct State {
        /// Whether the data source has this demo's handlers and outline.
        var configured = false
        /// The parents expanded in the data source's outline (what rows show), kept by the
        /// will-expand/collapse handlers and re-read from the outline after each change.
        var expanded: Set<String> = []
        var counts = HandlerCounts()
    }

    let tree: HeightOutline
    private let state = Mutex(State())

    init(tree: HeightOutline) {
        self.tree = tree
    }

    /// Which parents are expanded now.
    public var expandedItems: Set<String> { state.withLock { $0.expanded } }
    public var handlerCounts: HandlerCounts { state.withLock { $0.counts } }

    // MARK: Demo

    /// The top level only: children arrive through `snapshotForExpandingParent`.
    public func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections([Self.section])  // a constant identifier: cannot fail
        try? snapshot.appendItems(tree.roots, toSection: Self.section)  // unique by construction
        return snapshot
    }

    /// A sidebar list: one full-width row per item.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .sidebar), layoutEnvironment: environment)
        }
    }

    public func cell(for item: String) -> CellContent? {
        guard let node = tree.node(item) else { return nil }
        let expanded = node.kind != .mountain && state.withLock { $0.expanded.contains(item) }
        var values = ["id": node.id, "label": node.label, "detail": node.detail, "level": String(node.level),
                      "position": String(node.position), "siblings": String(node.siblings), "kind": node.kind.rawValue]
        if let parent = node.parent { values["parentID"] = parent }
        if node.kind != .mountain {
            values["isParent"] = "true"
            values["expanded"] = expanded ? "true" : "false"
            // The no-JavaScript form says what it does: a double submit cannot undo itself.
            values["formAction"] = expanded ? "collapse" : "expand"
            values["formURL"] = "/demos/\(Self.name)/actions/" + (expanded ? "collapse" : "expand")
        }
        return CellContent(template: "cells/outline-row", values: values)
    }

    public func data(for item: String) -> [String: String]? {
        guard let node = tree.node(item) else { return nil }
        var data = ["label": node.label, "level": String(node.level), "kind": node.kind.rawValue,
                    "position": String(node.position), "siblings": String(node.siblings)]
        if let parent = node.parent { data["parent"] = parent }
        if node.kind == .mountain {
            data["height"] = String(node.height)
        } else {
            data["expanded"] = state.withLock { $0.expanded.contains(item) } ? "true" : "false"
            data["mountains"] = String(node.mountainCount)
        }
        return data
    }

    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    public func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        guard ["expand", "collapse", "toggle"].contains(action) else { throw .unknownAction(action) }
        let item = try parameters.requiredString("item")
        guard let node = tree.node(item) else { throw .snapshot(.unknownItems([String(item.prefix(80))])) }
        try configure(dataSource)
        let expand = switch action {
        case "expand": true
        case "collapse": false
        default: !state.withLock { $0.expanded.contains(item) }
        }
        let update: DataSourceUpdate<String, String>?
        do {
            update = expand ? try dataSource.expand(item) : try dataSource.collapse(item)
        } catch .notInOutline {
            let why = node.parent.flatMap { tree.node($0) }.map { "expand “\($0.label)” first" }
                ?? "the section was replaced through the snapshot API"
            throw .unprocessable(code: "not_in_outline", message: "“\(node.label)” (\(item)) is not in the outline: \(why)")
        } catch {
            throw .unprocessable(code: error.code, message: error.description)
        }
        if node.kind == .mountain, update == nil {
            // shouldExpandItem refused it (a collapse finds it collapsed already): nothing changed.
            throw .unprocessable(code: "not_expandable", message: "“\(node.label)” (\(item)) is a mountain: it has no children to \(expand ? "expand" : "collapse")")
        }
        resynchronize(dataSource)
        // The parent's row shows its new disclosure state (when it is shown at all; nothing
        // changed when it was so already).
        guard update != nil, dataSource.snapshot().contains(item: item) else { return }
        _ = try? dataSource.update(animatingDifferences: true) { (snapshot: inout Snapshot<String, String>) throws(SnapshotError) in
            try snapshot.reconfigureItems([item])  // present: cannot fail
        }
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        let expanded = state.withLock { $0.expanded.count }
        let rows = snapshot.numberOfItems
        return "\(rows.grouped) \(rows == 1 ? "row" : "rows") · \(expanded) expanded"
    }

    /// How often children were loaded (`snapshotForExpandingParent`), for scripts.
    public func details(of snapshot: Snapshot<String, String>) -> String {
        let loads = state.withLock { $0.counts.loads }
        return "children loaded \(loads) \(loads == 1 ? "time" : "times")"
    }

    public func pageValues() -> [String: String] { [:] }

    /// Which parents are expanded: with the saved rows, that is the whole outline (the tree
    /// gives each parent's children).
    public func persistentState() -> [String: String] {
        ["expanded": state.withLock { $0.expanded }.sorted().joined(separator: " ")]
    }

    public func restore(state saved: [String: String]) {
        let expanded = Set((saved["expanded"] ?? "").split(separator: " ").map(String.init).filter { tree.node($0) != nil })
        state.withLock { $0.expanded = expanded }
    }

    /// Gives the data source its handlers and outline as soon as the list exists.
    public func attach(_ list: ListHandle) {
        Task {
            await list.write { dataSource in try? self.configure(dataSource) }
        }
    }

    // MARK: The data source's outline

    /// Sets the handlers and applies the top level as the section's outline, once (in the
    /// list's writer: an action and `attach`'s write may race; the first one does it).
    private func configure(_ dataSource: ListTransaction) throws(ActionError) {
        guard !state.withLock({ $0.configured }) else { return }
        var handlers = SectionSnapshotHandlers<String>()
        handlers.shouldExpandItem = { [weak self] item in self?.shouldExpand(item) ?? false }
        handlers.willExpandItem = { [weak self] item in self?.willExpand(item) }
        handlers.shouldCollapseItem = { [weak self] item in self?.shouldCollapse(item) ?? false }
        handlers.willCollapseItem = { [weak self] item in self?.willCollapse(item) }
        handlers.snapshotForExpandingParent = { [weak self] parent, subtree in self?.children(of: parent, current: subtree) ?? subtree }
        dataSource.sectionSnapshotHandlers = handlers
        var outline = SectionSnapshot<String>()
        try? outline.append(tree.roots)  // unique by construction: cannot fail
        let expanded = state.withLock { $0.expanded }
        if !expanded.isEmpty {
            // A saved outline: its expanded parents' children, in tree order (a parent is
            // expanded only under expanded ancestors, so the rows are the saved ones).
            var parents = tree.roots
            while let parent = parents.first {
                parents.removeFirst()
                guard expanded.contains(parent), let node = tree.node(parent), !node.children.isEmpty else { continue }
                try? outline.append(node.children, to: parent)
                try? outline.expand([parent])
                parents.append(contentsOf: node.children)
            }
            if dataSource.restore(outline, to: Self.section) {
                state.withLock { $0.configured = true }
                return
            }
        }
        do {
            // The same rows as the first snapshot: an apply with nothing to animate.
            try dataSource.apply(outline, to: Self.section, animatingDifferences: false)
        } catch {
            // A script replaced the section's items through the API first (one of them now
            // in another section): the outline cannot be shown as it is.
            throw .unprocessable(code: "not_in_outline", message: "The outline cannot be applied: \(error.description)")
        }
        state.withLock { $0.configured = true }
    }

    private func shouldExpand(_ item: String) -> Bool {
        state.withLock { $0.counts.shouldExpand += 1 }
        return tree.node(item).map { $0.kind != .mountain } ?? false
    }

    private func willExpand(_ item: String) {
        state.withLock { state in
            state.counts.willExpand += 1
            state.expanded.insert(item)
        }
    }

    private func shouldCollapse(_ item: String) -> Bool {
        state.withLock { $0.counts.shouldCollapse += 1 }
        return true
    }

    private func willCollapse(_ item: String) {
        state.withLock { state in
            state.counts.willCollapse += 1
            state.expanded.remove(item)
        }
    }

    /// `snapshotForExpandingParent`: the children of `parent`, loaded on its first expand; a
    /// later expand keeps what is there (and so which of them were expanded).
    private func children(of parent: String, current: SectionSnapshot<String>) -> SectionSnapshot<String> {
        if let loaded = try? current.children(of: parent), !loaded.isEmpty {
            state.withLock { $0.counts.reuses += 1 }
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
        state.withLock { $0.counts.loads += 1 }
        return subtree
    }

    /// Re-reads which parents are expanded from the data source's outline (the one truth).
    private func resynchronize(_ dataSource: ListTransaction) {
        guard let outline = try? dataSource.snapshot(for: Self.section) else { return }
        let expanded = Set(outline.items.lazy.filter { outline.isExpanded($0) })
        state.withLock { $0.expanded = expanded }
    }
}
