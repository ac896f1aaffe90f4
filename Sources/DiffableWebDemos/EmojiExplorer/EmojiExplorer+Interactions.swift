import DiffableWeb

// The Emoji Explorer's row interactions (UIKit's swipe actions and context menu): a leading
// swipe stars or unstars, a trailing one hides; the menu does either to every item it is for.
extension EmojiExplorer {
    /// Star (or Unstar): yellow, the outermost of the leading edge; a full swipe performs it.
    public func leadingSwipeActions(for item: String) -> SwipeActionsConfiguration? {
        guard EmojiCatalog.byID[item] != nil else { return nil }
        let isStarred = starred.contains(item)
        return SwipeActionsConfiguration(actions: [
            ContextualAction(style: .normal, title: isStarred ? "Unstar" : "Star", identifier: isStarred ? "unstar" : "star",
                             image: isStarred ? "star.slash" : "star.fill", backgroundColor: "yellow"),
        ])
    }

    /// Hide: destructive, the trailing edge's only action.
    public func trailingSwipeActions(for item: String) -> SwipeActionsConfiguration? {
        guard EmojiCatalog.byID[item] != nil else { return nil }
        return SwipeActionsConfiguration(actions: [
            ContextualAction(style: .destructive, title: "Hide", identifier: "hide", image: "eye.slash"),
        ])
    }

    /// Star and unstar reconfigure the row; hide deletes it, unless the emoji is starred: a
    /// starred emoji stays (UIKit's `completion(false)`: the row slides back, nothing changes).
    public mutating func performSwipeAction(_ identifier: String, on item: String, list: inout Snapshot<String, String>) throws -> Bool {
        switch identifier {
        case "star", "unstar":
            try setStarred([item], to: identifier == "star", on: &list)
            return true
        case "hide":
            guard !starred.contains(item) else { return false }
            try hide([item], on: &list)
            return true
        default:
            return false
        }
    }

    /// For emoji: Star (or Unstar, when all are starred), Copy name (one emoji: the page copies
    /// it), Hide (the unstarred ones; disabled when all are starred). For empty space: Show
    /// hidden (when something is). Categories in `items` are left out.
    public func contextMenu(forItems items: [String]) -> ContextMenu? {
        let emoji = items.filter { EmojiCatalog.byID[$0] != nil }
        if items.isEmpty {
            guard !hidden.isEmpty else { return nil }
            return ContextMenu(children: [MenuAction(title: "Show \(hidden.count) hidden", identifier: "show-hidden", image: "eye")])
        }
        guard !emoji.isEmpty else { return nil }
        let allStarred = emoji.allSatisfy(starred.contains)
        var children = [allStarred ? MenuAction(title: "Unstar", identifier: "unstar", image: "star.slash")
                                   : MenuAction(title: "Star", identifier: "star", image: "star")]
        if emoji.count == 1, let name = EmojiCatalog.byID[emoji[0]]?.emoji.name {
            children.append(MenuAction(title: "Copy name", identifier: "copy-name", image: "doc.on.doc", pasteboardText: name))
        }
        children.append(MenuAction(title: "Hide", identifier: "hide", image: "eye.slash",
                                   attributes: allStarred ? [.destructive, .disabled] : .destructive))
        let title = emoji.count == 1 ? EmojiCatalog.byID[emoji[0]]?.emoji.name ?? "" : "\(emoji.count) emoji"
        return ContextMenu(title: title, children: children)
    }

    public mutating func performMenuAction(_ identifier: String, on items: [String], list: inout Snapshot<String, String>) throws {
        let emoji = items.filter { EmojiCatalog.byID[$0] != nil }
        switch identifier {
        case "star", "unstar": try setStarred(emoji, to: identifier == "star", on: &list)
        case "hide": try hide(emoji.filter { !starred.contains($0) }, on: &list)
        case "show-hidden":
            hidden = []
            try show(on: &list, reconfiguring: nil)
        default: break  // copy-name: the page copied the name; nothing changes here
        }
    }
}
