import CompositionalLayout
import DiffableWeb

/// Apple's "List Appearances" (Implementing Modern Collection Views › Lists): one list of emoji
/// in five sections with headers, whose appearance switches live among UIKit's five
/// (``ListAppearance``): plain, grouped, inset grouped, sidebar and sidebar plain.
///
/// The appearance is the list's page state, saved with it. Switching it is a relayout: the
/// snapshot stays the same, so its changeset has no inserts and no deletes, and every cell in a
/// window moves and resizes to its new frame (animated, unless the person prefers reduced
/// motion). The page shows the appearance as `data-appearance` on its body (the control's
/// `data-shows-state`), so the rows' look (separators, rounding, backgrounds) follows it in the
/// same event that brings their frames.
public struct ListAppearances: BuiltInList, PageState, SupplementaryViews, SharedCells {
    public static let name = "list-appearances"
    public static let title = "List appearances"
    public static let summary = "One list in UIKit’s five appearances, switched live: plain, grouped, inset grouped, sidebar, sidebar plain."
    public static let pageTemplate = "demos/list-appearances"
    public static let cellTemplate = "cells/emoji-row"
    public static let cellTemplates = ["cells/emoji-row", "cells/emoji-header"]

    /// The look of the list (Apple's sample opens on plain).
    var appearance = ListAppearance.plain

    public enum Action: WebListAction {
        case appearance(style: ListAppearance)

        public static let descriptions = [
            "appearance": "Switch the list's appearance; every row keeps its identity and moves to its new frame",
            "appearance.style": "The appearance",
        ]
    }

    public struct Cell: Encodable {
        let emoji: String
        let name: String
        let codePoint: String
        /// The last row of its group in the catalog: no separator under it.
        let last: Bool
    }

    /// A section's header: Unicode's name of the emoji group.
    public struct Header: TemplatedCell {
        public let template = "cells/emoji-header"
        let title: String
    }

    public struct PageValues: Encodable {
        let appearance: ListAppearance
    }

    public init() {}

    public func initialSnapshot() throws -> Snapshot<String, String> {
        var list = Snapshot<String, String>()
        try list.appendSections(EmojiCatalog.groups.map(\.id))
        for group in EmojiCatalog.groups {
            try list.appendItems(group.emoji.map(\.id), toSection: group.id)
        }
        return list
    }

    public func layout() -> CompositionalLayout { appearance.layout }

    public func cell(for item: String) -> Cell? {
        guard let (emoji, isLast) = EmojiCatalog.byID[item] else { return nil }
        return Cell(emoji: emoji.character, name: emoji.name, codePoint: emoji.codePoint, last: isLast)
    }

    public func supplementary(_ kind: CellKind, in section: String, of list: Snapshot<String, String>) -> Header? {
        guard kind == .header, let group = EmojiCatalog.groupsByID[section] else { return nil }
        return Header(title: group.title)
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .appearance(let style):
            // The same items under a new layout: nothing is inserted or deleted.
            appearance = style
        }
    }

    public func status(of list: Snapshot<String, String>) -> String {
        "\(list.numberOfItems) emoji in \(list.numberOfSections) groups"
    }

    public func details(of list: Snapshot<String, String>) -> String { appearance.title }

    public var pageValues: PageValues { PageValues(appearance: appearance) }
}
