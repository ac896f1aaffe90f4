import CompositionalLayout
import DiffableWeb

/// Apple's Emoji Explorer (Implementing Modern Collection Views), in its list form: the emoji
/// catalog (``EmojiCatalog``) as an outline of categories that expand and collapse, a search box
/// that filters it, multiple selection with bulk actions, and UIKit's row interactions: a
/// leading swipe that stars or unstars an emoji (its row updates in place: a
/// `reconfigureItems`), a trailing destructive swipe that hides it, and a context menu (Star or
/// Unstar, Copy name, Hide) that acts on the whole selection when opened on a selected row.
///
/// The rows are the state's (`rows()`): the categories, each followed by its emoji that match
/// the query and are not hidden while it is expanded. An action computes them again and the
/// list animates the difference; a star changes one row's content only.
public struct EmojiExplorer: BuiltInList, SelectableList, SwipeActionsList, ContextMenuList, PageState, ItemData {
    public static let name = "emoji-explorer"
    public static let title = "Emoji Explorer"
    public static let summary = "Emoji by category: search, select, swipe a row to star or hide it, right-click for its menu."
    public static let pageTemplate = "demos/emoji-explorer"
    public static let cellTemplate = "cells/emoji-explorer-emoji"
    public static let cellTemplates = ["cells/emoji-explorer-emoji", "cells/emoji-explorer-category", starTemplate]
    public static let section = "emoji"

    /// The categories shown open (all of them in a new session).
    public internal(set) var expanded: Set<String> = Set(EmojiCatalog.groups.map(\.id))
    /// The search box's text (at most 100 characters); empty shows every emoji.
    public internal(set) var query = ""
    public internal(set) var starred: Set<String> = []
    /// Emoji hidden by a swipe or the menu (until "Show hidden").
    public internal(set) var hidden: Set<String> = []

    public enum Action: WebListAction {
        case toggle(category: String)
        case search(query: String?)
        case starSelected
        case unstarSelected
        case showHidden

        public static let descriptions = [
            "toggle": "Expand a collapsed category, collapse an expanded one", "toggle.category": "A category (smileys, animals, food, activities, travel)",
            "search": "Show the emoji whose name contains the query", "search.query": "Case-insensitive text; empty shows all",
            "starSelected": "Star every selected emoji (their rows update in place)",
            "unstarSelected": "Unstar every selected emoji",
            "showHidden": "Show every hidden emoji again",
        ]
    }

    /// A row: a category (its disclosure) or an emoji (its star is an accessory:
    /// `EmojiExplorer+Accessories.swift`).
    public struct Cell: TemplatedCell {
        public let template: String
        let id: String
        let label: String
        var emoji: String? = nil
        var codePoint: String? = nil
        var count: Int? = nil
        var expanded: Bool? = nil
        var formURL: String? = nil
    }

    /// What a script sees of a row.
    public struct Data: Encodable {
        let kind: String
        let label: String
        var starred: Bool? = nil
        var expanded: Bool? = nil
    }

    public struct PageValues: Encodable {
        let query: String
        let hiddenCount: Int
    }

    public init() {}

    public var selectionSettings: SelectionSettings { SelectionSettings(allowsMultipleSelection: true) }

    /// Only emoji are selected: a category row toggles instead.
    public func shouldSelect(_ item: String) -> Bool { EmojiCatalog.byID[item] != nil }

    public func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot([Self.section: rows()]) }

    /// The rows the state shows: each category with a match, then, while it is expanded, its matches.
    func rows() -> [String] {
        EmojiCatalog.groups.flatMap { group -> [String] in
            let matches = self.matches(in: group)
            if !query.isEmpty && matches.isEmpty { return [] }
            return [group.id] + (expanded.contains(group.id) ? matches.map(\.id) : [])
        }
    }

    func matches(in group: EmojiCatalog.Group) -> [EmojiCatalog.Emoji] {
        group.emoji.filter { !hidden.contains($0.id) && (query.isEmpty || $0.name.localizedCaseInsensitiveContains(query)) }
    }

    /// A sidebar-style list: one full-width row per item.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .insetGrouped), layoutEnvironment: environment)
        }
    }

    public func cell(for item: String) -> Cell? {
        if let group = EmojiCatalog.groupsByID[item] {
            let open = expanded.contains(item)
            return Cell(template: "cells/emoji-explorer-category", id: item, label: group.title, count: matches(in: group).count,
                        expanded: open, formURL: "/demos/\(Self.name)/actions/toggle")
        }
        guard let (emoji, _) = EmojiCatalog.byID[item] else { return nil }
        return Cell(template: Self.cellTemplate, id: item, label: emoji.name, emoji: emoji.character, codePoint: emoji.codePoint)
    }

    public func data(for item: String) -> Data? {
        if let group = EmojiCatalog.groupsByID[item] { return Data(kind: "category", label: group.title, expanded: expanded.contains(item)) }
        return EmojiCatalog.byID[item].map { Data(kind: "emoji", label: $0.emoji.name, starred: starred.contains(item)) }
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        var selection = ItemSelection<String>()
        try perform(action, on: &list, selection: &selection)
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>, selection: inout ItemSelection<String>) throws {
        switch action {
        case .toggle(let category):
            guard EmojiCatalog.groupsByID[category] != nil else {
                throw ActionError.unprocessable(code: "not_expandable", message: "“\(category.prefix(80))” is no category")
            }
            if expanded.contains(category) { expanded.remove(category) } else { expanded.insert(category) }
            try show(on: &list, reconfiguring: [category])
        case .search(let text):
            query = String((text ?? "").prefix(100))
            try show(on: &list, reconfiguring: nil)
        case .starSelected, .unstarSelected:
            let emoji = selection.selectedItems.filter { EmojiCatalog.byID[$0] != nil }
            try setStarred(emoji, to: action.isStar, on: &list)
        case .showHidden:
            hidden = []
            try show(on: &list, reconfiguring: nil)
        }
    }

    /// Shows ``rows()``; the category rows in `categories` (`nil`: every one, their counts may
    /// have changed) update in place.
    mutating func show(on list: inout Snapshot<String, String>, reconfiguring categories: [String]?) throws {
        let before = list
        list = try Snapshot([Self.section: rows()])
        let changed = categories ?? EmojiCatalog.groups.map(\.id)
        try list.reconfigureItems(changed.filter { list.contains(item: $0) && before.contains(item: $0) })
    }

    /// Stars or unstars `emoji`: each row that changes is reconfigured (the same node, new content).
    mutating func setStarred(_ emoji: [String], to star: Bool, on list: inout Snapshot<String, String>) throws {
        let changing = emoji.filter { starred.contains($0) != star }
        for item in changing { if star { starred.insert(item) } else { starred.remove(item) } }
        try list.reconfigureItems(changing.filter { list.contains(item: $0) })
    }

    /// Hides `emoji`: their rows leave (and their categories' counts change).
    mutating func hide(_ emoji: [String], on list: inout Snapshot<String, String>) throws {
        hidden.formUnion(emoji)
        try show(on: &list, reconfiguring: nil)
    }

    public func status(of list: Snapshot<String, String>) -> String {
        let shown = list.itemIdentifiers.filter { EmojiCatalog.byID[$0] != nil }.count
        let what = query.isEmpty ? "\(shown) emoji" : shown == 1 ? "1 emoji matches “\(query)”" : "\(shown) emoji match “\(query)”"
        return "\(what) · \(starred.count) starred" + (hidden.isEmpty ? "" : " · \(hidden.count) hidden")
    }

    public var pageValues: PageValues { PageValues(query: query, hiddenCount: hidden.count) }
}

extension EmojiExplorer.Action {
    var isStar: Bool {
        if case .starSelected = self { return true }
        return false
    }
}
