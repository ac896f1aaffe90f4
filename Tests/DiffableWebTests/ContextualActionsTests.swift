import Foundation
import DiffableDataSources
import Testing
@testable import DiffableWeb

/// UIKit's semantics of swipe configurations and of the items a context menu is for.
@Suite("Swipe configurations and context menu items, as UIKit has them")
struct ContextualActionsTests {
    let star = ContextualAction(style: .normal, title: "Star", identifier: "star")
    let hide = ContextualAction(style: .destructive, title: "Hide", identifier: "hide")

    @Test("actions[0] is the outermost and what a full swipe performs; full swipes are on by default")
    func outermost() {
        let configuration = SwipeActionsConfiguration(actions: [hide, star])
        #expect(configuration.performsFirstActionWithFullSwipe)
        #expect(configuration.fullSwipeAction == hide)
        var off = configuration
        off.performsFirstActionWithFullSwipe = false
        #expect(off.fullSwipeAction == nil)
        #expect(SwipeActionsConfiguration(actions: []).fullSwipeAction == nil)
    }

    @Test("the menu's items: in a selection, all of it (in list order); outside it, the item; on empty space, none",
          arguments: [("b", ["a", "b", "d"]), ("c", ["c"]), (nil, [])] as [(String?, [String])])
    func menuItems(at item: String?, expected: [String]) throws {
        let snapshot = try Snapshot<String, String>(["s": ["a", "b", "c", "d"]])
        var selection = ItemSelection<String>(settings: SelectionSettings(allowsMultipleSelection: true))
        _ = try selection.selectItems(["d", "a", "b"], in: snapshot)
        #expect(selection.contextMenuItems(at: item, in: snapshot) == expected)
    }

    @Test("a single selected item is the whole selection")
    func single() throws {
        let snapshot = try Snapshot<String, String>(["s": ["a", "b"]])
        var selection = ItemSelection<String>()
        _ = try selection.selectItems(["b"], in: snapshot)
        #expect(selection.contextMenuItems(at: "b", in: snapshot) == ["b"])
        #expect(selection.contextMenuItems(at: "a", in: snapshot) == ["a"])
    }

    @Test("menu actions encode their attributes only when set")
    func menuActionEncoding() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let plain = String(decoding: try encoder.encode(MenuAction(title: "Star", identifier: "star")), as: UTF8.self)
        #expect(plain == #"{"identifier":"star","title":"Star"}"#)
        let hide = String(decoding: try encoder.encode(MenuAction(title: "Hide", identifier: "hide", attributes: [.destructive, .disabled])), as: UTF8.self)
        #expect(hide == #"{"destructive":true,"disabled":true,"identifier":"hide","title":"Hide"}"#)
    }
}
