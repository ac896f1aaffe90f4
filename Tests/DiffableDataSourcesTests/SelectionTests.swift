import Foundation
import SeededRandom
import Synchronization
import Testing
@testable import DiffableDataSources

/// Sections a: [1, 2, 3], b: [4, 5].
private func list() throws -> Snapshot<String, Int> { try makeSnapshot(["a": [1, 2, 3], "b": [4, 5]]) }

private let multiple = SelectionSettings(allowsMultipleSelection: true)

/// A selection with these settings after `select` selected these items by code.
private func makeSelection(_ settings: SelectionSettings = SelectionSettings(), selecting items: [Int] = []) throws -> ItemSelection<Int> {
    var selection = ItemSelection<Int>(settings: settings)
    for item in items { try selection.selectItem(item, in: list()) }
    return selection
}

@Suite("Selection settings: UIKit's defaults and what applies in each mode")
struct SelectionSettingsTests {
    @Test("the defaults are UIKit's: selection on, single, nothing while editing, not editing")
    func defaults() {
        let settings = SelectionSettings()
        #expect(settings.allowsSelection && !settings.allowsMultipleSelection && !settings.isEditing)
        #expect(!settings.allowsSelectionDuringEditing && !settings.allowsMultipleSelectionDuringEditing)
        #expect(settings.allowsSelectionNow && !settings.allowsMultipleSelectionNow)
    }

    @Test("which pair of properties applies depends on isEditing; allowsSelection applies in both", arguments: [
        // allowsSelection, multiple, duringEditing, multipleDuringEditing, isEditing → now, multiple now
        ([true, false, false, false, false], true, false),
        ([true, true, false, false, false], true, true),
        ([false, true, false, false, false], false, false),
        ([true, true, false, false, true], false, false),
        ([true, false, true, false, true], true, false),
        ([true, false, true, true, true], true, true),
        ([true, false, false, true, true], true, true),
        ([false, false, true, true, true], false, false),
    ])
    func inEffect(flags: [Bool], selectionNow: Bool, multipleNow: Bool) {
        let settings = SelectionSettings(allowsSelection: flags[0], allowsMultipleSelection: flags[1], allowsSelectionDuringEditing: flags[2],
                                         allowsMultipleSelectionDuringEditing: flags[3], isEditing: flags[4])
        #expect(settings.allowsSelectionNow == selectionNow)
        #expect(settings.allowsMultipleSelectionNow == multipleNow)
    }
}

@Suite("Selection by code: selectItem, selectItems, deselectItem, deselectAll, selectAll")
struct ProgrammaticSelectionTests {
    @Test("in single selection, selecting B after A leaves only B, and no delegate call is due")
    func singleReplaces() throws {
        var selection = try makeSelection(selecting: [1])
        let change = try selection.selectItem(4, in: list())
        #expect(selection.selectedItems == [4])
        #expect(change == SelectionChange(selected: [4], deselected: [1], isUserInteraction: false))
    }

    @Test("in multiple selection, selecting adds, in the order of selection")
    func multipleAdds() throws {
        let selection = try makeSelection(multiple, selecting: [3, 1, 4])
        #expect(selection.selectedItems == [3, 1, 4])
        #expect(selection.isSelected(1) && !selection.isSelected(2))
        #expect(selection.count == 3 && !selection.isEmpty)
    }

    @Test("selecting an item already selected changes nothing")
    func selectAgain() throws {
        var selection = try makeSelection(multiple, selecting: [1, 2])
        let change = try selection.selectItem(1, in: list())
        #expect(change.isEmpty && selection.selectedItems == [1, 2])
    }

    @Test("selecting an item the list does not contain throws, naming it, and changes nothing")
    func unknownItem() throws {
        var selection = try makeSelection(selecting: [1])
        let before = selection
        #expect(throws: SelectionError.unknownItems(["99"])) { try selection.selectItem(99, in: list()) }
        #expect(selection == before)
    }

    @Test("selecting by code has no effect while selection is not allowed (UIKit's selectItem(at:))")
    func notAllowed() throws {
        var selection = ItemSelection<Int>(settings: SelectionSettings(allowsSelection: false))
        let change = try selection.selectItem(1, in: list())
        #expect(change.isEmpty && selection.isEmpty)
        var editing = ItemSelection<Int>(settings: SelectionSettings(isEditing: true))
        try editing.selectItems([1], in: list())
        #expect(editing.isEmpty)
    }

    @Test("selectItems adds every new item in order, and skips those already selected")
    func selectItemsAdds() throws {
        var selection = try makeSelection(multiple, selecting: [2])
        let change = try selection.selectItems([5, 2, 1, 5], in: list())
        #expect(selection.selectedItems == [2, 5, 1])
        #expect(change.selected == [5, 1] && !change.isUserInteraction)
    }

    @Test("selectItems in single selection: a second item throws, naming it and the selected one", arguments: [
        ([1], [4], SelectionError.multipleSelectionNotAllowed(item: "4", alreadySelected: "1")),
        ([], [2, 3], SelectionError.multipleSelectionNotAllowed(item: "3", alreadySelected: "2")),
        ([1], [1, 5], SelectionError.multipleSelectionNotAllowed(item: "5", alreadySelected: "1")),
    ])
    func selectItemsSingle(before: [Int], adding: [Int], expected: SelectionError) throws {
        var selection = try makeSelection(selecting: before)
        let unchanged = selection
        #expect(throws: expected) { try selection.selectItems(adding, in: list()) }
        #expect(selection == unchanged)
    }

    @Test("selectItems in single selection may add one item to an empty selection")
    func selectItemsSingleOne() throws {
        var selection = ItemSelection<Int>()
        try selection.selectItems([3, 3], in: list())
        #expect(selection.selectedItems == [3])
    }

    @Test("selectItems names every unknown item and changes nothing")
    func selectItemsUnknown() throws {
        var selection = try makeSelection(multiple, selecting: [1])
        let before = selection
        #expect(throws: SelectionError.unknownItems(["98", "99"])) { try selection.selectItems([2, 98, 99], in: list()) }
        #expect(selection == before)
    }

    @Test("deselectItem removes one item and keeps the order of the rest; an unselected item changes nothing")
    func deselect() throws {
        var selection = try makeSelection(multiple, selecting: [3, 1, 4])
        #expect(selection.deselectItem(1) == SelectionChange(deselected: [1], isUserInteraction: false))
        #expect(selection.selectedItems == [3, 4])
        #expect(selection.deselectItem(2).isEmpty)
        #expect(selection.deselectItem(99).isEmpty)
    }

    @Test("deselectAll deselects everything, in selection order")
    func deselectAll() throws {
        var selection = try makeSelection(multiple, selecting: [5, 2])
        #expect(selection.deselectAll().deselected == [5, 2])
        #expect(selection.isEmpty && selection.anchor == nil)
    }

    @Test("selectAll selects the rest of the list in snapshot order when multiple selection is in effect")
    func selectAll() throws {
        var selection = try makeSelection(multiple, selecting: [4])
        let change = selection.selectAll(in: try list())
        #expect(selection.selectedItems == [4, 1, 2, 3, 5])
        #expect(change.selected == [1, 2, 3, 5] && !change.isUserInteraction)
    }

    @Test("selectAll does nothing in single selection (as NSCollectionView's selectAll)")
    func selectAllSingle() throws {
        var selection = try makeSelection(selecting: [2])
        #expect(selection.selectAll(in: try list()).isEmpty)
        #expect(selection.selectedItems == [2])
    }
}

@Suite("Selection by the user: taps, vetoes and the primary action")
struct TapSelectionTests {
    @Test("with allowsSelection off a tap selects nothing (the primary action is still due)")
    func selectionOff() throws {
        var selection = ItemSelection<Int>(settings: SelectionSettings(allowsSelection: false))
        let change = try selection.tap(1, in: list())
        #expect(selection.isEmpty)
        #expect(change == SelectionChange(isUserInteraction: true, primaryActionItem: 1))
    }

    @Test("while editing with the default settings a tap selects nothing, and no primary action is due")
    func editingDefaults() throws {
        var selection = ItemSelection<Int>(settings: SelectionSettings(isEditing: true))
        let change = try selection.tap(1, in: list())
        #expect(selection.isEmpty)
        #expect(change == SelectionChange(isUserInteraction: true))
    }

    @Test("single selection: tapping B after A deselects A and selects B")
    func singleReplaces() throws {
        var selection = ItemSelection<Int>()
        try selection.tap(1, in: list())
        let change = try selection.tap(4, in: list())
        #expect(selection.selectedItems == [4])
        #expect(change == SelectionChange(selected: [4], deselected: [1], isUserInteraction: true, primaryActionItem: 4))
    }

    @Test("single selection: tapping the selected item keeps it selected, and the primary action is due again")
    func singleTapAgain() throws {
        var selection = ItemSelection<Int>()
        try selection.tap(2, in: list())
        let change = try selection.tap(2, in: list())
        #expect(selection.selectedItems == [2])
        #expect(change == SelectionChange(isUserInteraction: true, primaryActionItem: 2))
    }

    @Test("multiple selection: a tap toggles, so A, B, A leaves B")
    func multipleToggles() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        for item in [1, 4, 1] { try selection.tap(item, in: list()) }
        #expect(selection.selectedItems == [4])
    }

    @Test("multiple selection: the primary action is due for a first item only, not when extending or deselecting")
    func multiplePrimaryAction() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        #expect(try selection.tap(1, in: list()).primaryActionItem == 1)
        #expect(try selection.tap(2, in: list()).primaryActionItem == nil)
        let deselect = try selection.tap(2, in: list())
        #expect(deselect == SelectionChange(deselected: [2], isUserInteraction: true))
    }

    @Test("in editing mode a tap selects (when allowed) but no primary action is due")
    func editingNoPrimaryAction() throws {
        var selection = ItemSelection<Int>(settings: SelectionSettings(allowsMultipleSelectionDuringEditing: true, isEditing: true))
        let first = try selection.tap(1, in: list())
        try selection.tap(5, in: list())
        #expect(first == SelectionChange(selected: [1], isUserInteraction: true))
        #expect(selection.selectedItems == [1, 5])
    }

    @Test("a shouldSelect veto leaves the selection as it was; in single selection the primary action is still due")
    func shouldSelectVeto() throws {
        var selection = try makeSelection(selecting: [1])
        let before = selection
        let change = try selection.tap(2, in: list(), shouldSelect: { $0 != 2 })
        #expect(selection == before)
        #expect(change == SelectionChange(isUserInteraction: true, primaryActionItem: 2))
    }

    @Test("shouldSelect is asked for the tapped item only; shouldDeselect for the item a tap would deselect")
    func delegateQuestions() throws {
        var selection = try makeSelection(selecting: [1])
        var asked: [String] = []
        try selection.tap(2, in: list(), shouldSelect: { asked.append("select \($0)"); return true },
                          shouldDeselect: { asked.append("deselect \($0)"); return true })
        #expect(asked == ["select 2", "deselect 1"])
    }

    @Test("a shouldDeselect veto keeps a multiple selection's item, and refuses a single selection's replacement")
    func shouldDeselectVeto() throws {
        var many = try makeSelection(multiple, selecting: [1, 2])
        let kept = try many.tap(1, in: list(), shouldDeselect: { _ in false })
        #expect(kept.isEmpty && many.selectedItems == [1, 2])
        var single = try makeSelection(selecting: [1])
        try single.tap(3, in: list(), shouldDeselect: { _ in false })
        #expect(single.selectedItems == [1])
    }

    @Test("a tap on an item the list does not contain throws and changes nothing")
    func unknownTap() throws {
        var selection = try makeSelection(selecting: [1])
        let before = selection
        #expect(throws: SelectionError.unknownItems(["7"])) { try selection.tap(7, in: list()) }
        #expect(selection == before)
    }
}

@Suite("Range selection: Shift-click and Shift+arrow from the anchor")
struct ExtendSelectionTests {
    @Test("extending from the anchor selects the range in snapshot order, across sections")
    func forward() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(2, in: list())
        let change = try selection.extend(to: 4, in: list())
        #expect(selection.selectedItems == [2, 3, 4])
        #expect(change == SelectionChange(selected: [3, 4], isUserInteraction: true))
    }

    @Test("extending backwards selects in snapshot order too")
    func backward() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(5, in: list())
        try selection.extend(to: 2, in: list())
        #expect(selection.selectedItems == [5, 2, 3, 4])
    }

    @Test("a second extension replaces the first's range: Shift+↓ Shift+↓ Shift+↑ leaves two items")
    func shrinks() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(1, in: list())
        try selection.extend(to: 2, in: list())
        try selection.extend(to: 3, in: list())
        let change = try selection.extend(to: 2, in: list())
        #expect(selection.selectedItems == [1, 2])
        #expect(change.deselected == [3] && change.selected.isEmpty)
    }

    @Test("items selected apart from the range stay selected")
    func keepsOthers() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(5, in: list())
        try selection.tap(1, in: list())
        try selection.extend(to: 2, in: list())
        #expect(selection.selectedItems == [5, 1, 2])
    }

    @Test("without an anchor the item is selected and becomes the anchor")
    func noAnchor() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.extend(to: 3, in: list())
        try selection.extend(to: 5, in: list())
        #expect(selection.selectedItems == [3, 4, 5])
    }

    @Test("in single selection a Shift-click is a tap")
    func single() throws {
        var selection = try makeSelection(selecting: [1])
        var tapped = selection
        let change = try selection.extend(to: 4, in: list())
        let tap = try tapped.tap(4, in: list())
        #expect(change == tap && selection == tapped)
    }

    @Test("vetoed items keep their state while the rest of the range changes")
    func vetoes() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(1, in: list())
        try selection.extend(to: 4, in: list(), shouldSelect: { $0 != 3 })
        #expect(selection.selectedItems == [1, 2, 4])
    }

    @Test("extending to an unknown item throws and changes nothing")
    func unknown() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(1, in: list())
        let before = selection
        #expect(throws: SelectionError.unknownItems(["9"])) { try selection.extend(to: 9, in: list()) }
        #expect(selection == before)
    }
}

@Suite("Changing the settings trims the selection to what they allow")
struct SelectionSettingsChangeTests {
    @Test("turning allowsSelection off deselects everything")
    func selectionOff() throws {
        var selection = try makeSelection(multiple, selecting: [1, 2])
        var settings = selection.settings
        settings.allowsSelection = false
        let change = selection.setSettings(settings)
        #expect(selection.isEmpty && change == SelectionChange(deselected: [1, 2], isUserInteraction: false))
    }

    @Test("turning multiple selection off keeps the first selected item")
    func multipleOff() throws {
        var selection = try makeSelection(multiple, selecting: [4, 1, 2])
        let change = selection.setSettings(SelectionSettings())
        #expect(selection.selectedItems == [4])
        #expect(change.deselected == [1, 2])
    }

    @Test("entering editing mode with selection during editing off deselects everything")
    func enterEditing() throws {
        var selection = try makeSelection(selecting: [3])
        let change = selection.setEditing(true)
        #expect(selection.isEmpty && change.deselected == [3] && selection.settings.isEditing)
    }

    @Test("entering editing mode with multiple selection during editing keeps the selection")
    func enterEditingAllowed() throws {
        var selection = try makeSelection(SelectionSettings(allowsMultipleSelection: true, allowsMultipleSelectionDuringEditing: true), selecting: [1, 2])
        #expect(selection.setEditing(true).isEmpty)
        #expect(selection.selectedItems == [1, 2])
    }

    @Test("leaving a multiple-selection editing mode for single selection keeps the first item")
    func leaveEditing() throws {
        var selection = ItemSelection<Int>(settings: SelectionSettings(allowsMultipleSelectionDuringEditing: true, isEditing: true))
        for item in [2, 5, 1] { try selection.tap(item, in: list()) }
        selection.setEditing(false)
        #expect(selection.selectedItems == [2])
    }

    @Test("settings that still allow the selection change nothing")
    func unchanged() throws {
        var selection = try makeSelection(selecting: [3])
        #expect(selection.setSettings(multiple).isEmpty && selection.selectedItems == [3])
    }
}

@Suite("The selection through an apply")
struct SelectionReconcileTests {
    /// A data source showing `list()`, and a selection of `items` in multiple selection.
    static func start(selecting items: [Int]) throws -> (DiffableDataSource<String, Int>, ItemSelection<Int>) {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try list())
        return (dataSource, try makeSelection(multiple, selecting: items))
    }

    @Test("a selected item that moves, within or across sections, stays selected")
    func move() throws {
        var (dataSource, selection) = try Self.start(selecting: [1, 4])
        var snapshot = dataSource.snapshot()
        try snapshot.moveItem(1, afterItem: 3)
        try snapshot.moveItem(4, beforeItem: 2)
        let change = selection.reconcile(with: dataSource.apply(snapshot))
        #expect(change.isEmpty && selection.selectedItems == [1, 4])
    }

    @Test("a deleted item leaves the selection, also with its section")
    func delete() throws {
        var (dataSource, selection) = try Self.start(selecting: [5, 2, 4])
        var snapshot = dataSource.snapshot()
        try snapshot.deleteItems([2])
        try snapshot.deleteSections(["b"])
        let change = selection.reconcile(with: dataSource.apply(snapshot))
        #expect(selection.isEmpty)
        #expect(change == SelectionChange(deselected: [5, 2, 4], isUserInteraction: false))
    }

    @Test("a reconfigured item stays selected")
    func reconfigure() throws {
        var (dataSource, selection) = try Self.start(selecting: [2])
        var snapshot = dataSource.snapshot()
        try snapshot.reconfigureItems([2])
        #expect(selection.reconcile(with: dataSource.apply(snapshot)).isEmpty)
        #expect(selection.selectedItems == [2])
    }

    @Test("a reloaded item is deselected (as UITableView's reloadRows), and so are the items of a reloaded section")
    func reload() throws {
        var (dataSource, selection) = try Self.start(selecting: [1, 2, 4])
        var snapshot = dataSource.snapshot()
        try snapshot.reloadItems([2])
        try snapshot.reloadSections(["b"])
        let change = selection.reconcile(with: dataSource.apply(snapshot))
        #expect(selection.selectedItems == [1])
        #expect(change.deselected == [2, 4])
    }

    @Test("a reset (applySnapshotUsingReloadData) keeps the items that still exist")
    func reset() throws {
        var (dataSource, selection) = try Self.start(selecting: [3, 5])
        let update = dataSource.applySnapshotUsingReloadData(try makeSnapshot(["c": [5, 6, 1]]))
        #expect(update.kind == .reloadData)
        selection.reconcile(with: update)
        #expect(selection.selectedItems == [5])
    }

    @Test("a user's reorder keeps the moved item selected")
    func reorder() throws {
        var (dataSource, selection) = try Self.start(selecting: [3])
        let reorder = Mutex<DataSourceUpdate<String, Int>?>(nil)
        dataSource.addObserver { update in reorder.withLock { $0 = update } }
        dataSource.reorderingHandlers.canReorderItem = { _ in true }
        try dataSource.reorderItem(3, to: IndexPath(item: 0, section: 1))
        let update = try #require(reorder.withLock { $0 })
        #expect(update.kind == .reorder && update.changeset.itemMoves.map(\.id) == [3])
        #expect(selection.reconcile(with: update).isEmpty && selection.selectedItems == [3])
    }

    @Test("the anchor is forgotten when its item leaves the list")
    func anchor() throws {
        var (dataSource, selection) = try Self.start(selecting: [])
        try selection.tap(2, in: list())
        try selection.extend(to: 3, in: list())
        var snapshot = dataSource.snapshot()
        try snapshot.deleteItems([2])
        selection.reconcile(with: dataSource.apply(snapshot))
        #expect(selection.anchor == nil && selection.extent == nil && selection.selectedItems == [3])
        #expect(selection._brokenInvariant(in: dataSource.snapshot()) == nil)
    }

    @Test("with the snapshot alone, items the list no longer contains leave the selection")
    func snapshotAlone() throws {
        var selection = try makeSelection(multiple, selecting: [1, 4, 5])
        let change = selection.reconcile(with: try makeSnapshot(["a": [5, 1]]))
        #expect(selection.selectedItems == [1, 5] && change.deselected == [4])
    }

    @Test("many deletions and few selected items, or the reverse, give the same result")
    func bothWays() throws {
        let dataSource = DiffableDataSource<String, Int>()
        dataSource.apply(try makeSnapshot(["a": Array(0..<100)]))
        var few = ItemSelection<Int>(settings: multiple)
        try few.selectItems([3, 50], in: dataSource.snapshot())
        var many = few
        many.selectAll(in: dataSource.snapshot())
        var snapshot = dataSource.snapshot()
        try snapshot.deleteItems(Array(0..<60))
        let update = dataSource.apply(snapshot)
        few.reconcile(with: update)
        many.reconcile(with: update)
        #expect(few.isEmpty)
        #expect(many.selectedItems == Array(60..<100))
    }
}

@Suite("Selection errors and storage")
struct SelectionErrorAndCodingTests {
    @Test("errors have stable codes and name the culprits, ten at most")
    func messages() {
        #expect(SelectionError.unknownItems(["7"]).code == "unknown_items")
        #expect(SelectionError.unknownItems(["7"]).description == "Cannot select items the list does not contain: 7")
        let many = SelectionError.unknownItems((1...12).map(String.init)).description
        #expect(many.hasSuffix("10 … (12 in all)"))
        let second = SelectionError.multipleSelectionNotAllowed(item: "4", alreadySelected: "1")
        #expect(second.code == "multiple_selection_not_allowed")
        #expect(second.description.contains("Cannot add 4") && second.description.contains("1 is selected"))
    }

    @Test("a selection encodes and decodes to itself, anchor and order included")
    func roundTrip() throws {
        var selection = ItemSelection<Int>(settings: multiple)
        try selection.tap(4, in: list())
        try selection.tap(1, in: list())
        try selection.extend(to: 2, in: list())
        let decoded = try JSONDecoder().decode(ItemSelection<Int>.self, from: JSONEncoder().encode(selection))
        #expect(decoded == selection)
        #expect(decoded.selectedItems == [4, 1, 2])
    }

    @Test("settings decode with UIKit's defaults for what is missing")
    func settingsDefaults() throws {
        let settings = try JSONDecoder().decode(SelectionSettings.self, from: Data(#"{"allowsMultipleSelection":true}"#.utf8))
        #expect(settings == SelectionSettings(allowsMultipleSelection: true))
        #expect(try JSONDecoder().decode(SelectionSettings.self, from: JSONEncoder().encode(settings)) == settings)
    }

    @Test("decoding rejects what no operation could make", arguments: [
        #"{"settings":{"allowsSelection":true,"allowsMultipleSelection":true,"allowsSelectionDuringEditing":false,"allowsMultipleSelectionDuringEditing":false,"isEditing":false},"selectedItems":[1,1]}"#,
        #"{"settings":{"allowsSelection":true,"allowsMultipleSelection":false,"allowsSelectionDuringEditing":false,"allowsMultipleSelectionDuringEditing":false,"isEditing":false},"selectedItems":[1,2]}"#,
        #"{"settings":{"allowsSelection":false,"allowsMultipleSelection":true,"allowsSelectionDuringEditing":false,"allowsMultipleSelectionDuringEditing":false,"isEditing":false},"selectedItems":[1]}"#,
    ])
    func rejects(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ItemSelection<Int>.self, from: Data(json.utf8)) }
    }
}

@Suite("Selection that follows focus: a moved focus selects, in single selection, without the primary action")
struct FocusSelectionTests {
    private static let follows = SelectionSettings(selectionFollowsFocus: true)

    @Test("the setting is off by default, as UIKit's, and a saved value without it decodes to off")
    func defaultsOff() throws {
        #expect(!SelectionSettings().selectionFollowsFocus)
        let decoded = try JSONDecoder().decode(SelectionSettings.self, from: Data(#"{"allowsMultipleSelection": false}"#.utf8))
        #expect(!decoded.selectionFollowsFocus)
        let roundTrip = try JSONDecoder().decode(SelectionSettings.self, from: JSONEncoder().encode(Self.follows))
        #expect(roundTrip == Self.follows)
    }

    @Test("it applies only where a tap may select one item", arguments: [
        (SelectionSettings(selectionFollowsFocus: true), true),
        (SelectionSettings(allowsMultipleSelection: true, selectionFollowsFocus: true), false),
        (SelectionSettings(allowsSelection: false, selectionFollowsFocus: true), false),
        (SelectionSettings(isEditing: true, selectionFollowsFocus: true), false),
        (SelectionSettings(allowsSelectionDuringEditing: true, isEditing: true, selectionFollowsFocus: true), true),
        (SelectionSettings(), false),
    ])
    func inEffect(settings: SelectionSettings, now: Bool) {
        #expect(settings.selectionFollowsFocusNow == now)
    }

    @Test("focus on B after A selects B alone; the change is a person's, with no primary action")
    func focusReplaces() throws {
        var selection = ItemSelection<Int>(settings: Self.follows)
        try selection.focus(1, in: list())
        let change = try selection.focus(4, in: list())
        #expect(selection.selectedItems == [4])
        #expect(change == SelectionChange(selected: [4], deselected: [1], isUserInteraction: true))
    }

    @Test("where selection does not follow focus, a focus changes nothing", arguments: [
        SelectionSettings(), SelectionSettings(allowsMultipleSelection: true, selectionFollowsFocus: true),
        SelectionSettings(allowsSelection: false, selectionFollowsFocus: true),
    ])
    func focusAlone(settings: SelectionSettings) throws {
        var selection = ItemSelection<Int>(settings: settings)
        if settings.allowsSelectionNow { try selection.selectItem(2, in: list()) }
        let before = selection
        let change = try selection.focus(4, in: list())
        #expect(selection == before)
        #expect(change == SelectionChange(isUserInteraction: true))
    }

    @Test("a shouldSelect veto leaves the selection as it was")
    func veto() throws {
        var selection = ItemSelection<Int>(settings: Self.follows)
        try selection.focus(1, in: list())
        let change = try selection.focus(5, in: list(), shouldSelect: { $0 != 5 })
        #expect(selection.selectedItems == [1])
        #expect(change == SelectionChange(isUserInteraction: true))
    }

    @Test("a focus on an item the list does not contain throws, naming it, and changes nothing")
    func unknown() throws {
        var selection = ItemSelection<Int>(settings: Self.follows)
        try selection.focus(2, in: list())
        #expect(throws: SelectionError.unknownItems(["9"])) { try selection.focus(9, in: list()) }
        #expect(selection.selectedItems == [2])
    }

    @Test("over random moves, focus then tap equals a tap, and a focus alone never asks for the primary action",
          arguments: 0..<20)
    func focusThenTap(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        var focused = ItemSelection<Int>(settings: Self.follows), tapped = ItemSelection<Int>(settings: Self.follows)
        for _ in 0..<30 {
            let item = Int(random.next() % 5) + 1
            let change = try focused.focus(item, in: list())
            #expect(change.primaryActionItem == nil)
            #expect(focused.selectedItems == [item])
            try tapped.tap(item, in: list())
            #expect(focused.selectedItems == tapped.selectedItems)
        }
    }
}
