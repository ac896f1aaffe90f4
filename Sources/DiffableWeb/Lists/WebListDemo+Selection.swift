import DiffableDataSources
import Foundation

// A ``SelectableList``'s selection: kept beside its state (``WebListDemo/Value/selection``),
// changed by a person's tap (with the list's delegate methods) or a script's request (without),
// trimmed to the list's settings and reconciled with every apply, after each write.
extension WebListDemo: SelectionPatternServing {
    var selectionIsGrid: Bool { registration.selectionIsGrid }

    /// The key of the selection in the saved state (beside the list's own keys).
    static var selectionKey: String { "_selection" }

    var selection: ListSelection? {
        guard registration.isSelectable else { return nil }
        return ListSelection(value.withLock { $0.selection })
    }

    func reconcileSelection(with updates: [DataSourceUpdate<String, String>], snapshot: Snapshot<String, String>) {
        guard registration.isSelectable, let list = current as? any SelectableList else { return }
        value.withLock { value in
            var selection = value.selection
            let settings = Self.settings(of: list, editing: selection.settings.isEditing)
            if selection.settings != settings { selection.setSettings(settings) }
            if updates.isEmpty {
                selection.reconcile(with: snapshot)
            } else {
                for update in updates { selection.reconcile(with: update) }
            }
            guard selection != value.selection else { return }
            value.selection = selection
            value.saved = nil  // what was made of the value before is not this one's
            value.generation += 1
        }
    }

    func select(_ request: SelectionRequest, on transaction: ListTransaction) throws -> Bool {
        guard registration.isSelectable, let list = current as? any SelectableList else {
            throw ActionError.unprocessable(code: "not_selectable", message: "The \(List.name) list has no selection")
        }
        return try Self.select(list, request, on: transaction, demo: self)
    }

    private static func select<Selectable: SelectableList>(_ list: Selectable, _ request: SelectionRequest, on transaction: ListTransaction,
                                                          demo: WebListDemo) throws -> Bool {
        let snapshot = transaction.snapshot()
        let unknown = request.namedItems.filter { !snapshot.contains(item: $0) }
        guard unknown.isEmpty else { throw SelectionError.unknownItems(unknown) }
        let before = demo.value.withLock { $0.selection }
        var selection = before
        let settings = Self.settings(of: list, editing: selection.settings.isEditing)
        if selection.settings != settings { selection.setSettings(settings) }
        var changed = list
        let change: SelectionChange<String>
        switch request {
        case .setEditing(let editing):
            change = selection.setEditing(editing)
        case .tap(let item, let extend):
            let shouldSelect = { (item: String) in list.shouldSelect(item) }
            let shouldDeselect = { (item: String) in list.shouldDeselect(item) }
            change = extend ? try selection.extend(to: item, in: snapshot, shouldSelect: shouldSelect, shouldDeselect: shouldDeselect)
                            : try selection.tap(item, in: snapshot, shouldSelect: shouldSelect, shouldDeselect: shouldDeselect)
        case .focus(let item):
            change = try selection.focus(item, in: snapshot, shouldSelect: { list.shouldSelect($0) }, shouldDeselect: { list.shouldDeselect($0) })
        case .selectAll:
            change = selection.selectAll(in: snapshot)
        case .select(let items):
            change = try selection.selectItems(items, in: snapshot)
        case .deselect(let items):
            var deselected: [String] = []
            for item in items { deselected += selection.deselectItem(item).deselected }
            change = SelectionChange(deselected: deselected, isUserInteraction: false)
        case .replace(let items):
            var replaced = selection
            let removed = replaced.deselectAll().deselected
            let added = try replaced.selectItems(items, in: snapshot).selected
            selection = replaced
            let kept = Set(items)
            change = SelectionChange(selected: added.filter { !before.isSelected($0) },
                                     deselected: removed.filter { !kept.contains($0) }, isUserInteraction: false)
        case .form(let checked, let shown):
            // A person's checkboxes: each one that changed is a tap on it.
            let wanted = Set(checked)
            var taps = SelectionChange<String>(isUserInteraction: true)
            for item in shown where wanted.contains(item) != selection.isSelected(item) {
                let tap = try selection.tap(item, in: snapshot, shouldSelect: { list.shouldSelect($0) }, shouldDeselect: { list.shouldDeselect($0) })
                taps.selected += tap.selected
                taps.deselected += tap.deselected
            }
            change = taps
        }
        if change.isUserInteraction {
            for item in change.deselected { changed.didDeselect(item) }
            for item in change.selected { changed.didSelect(item) }
            if let item = change.primaryActionItem { changed.performPrimaryAction(for: item) }
        }
        let oldState = demo.persistentState()
        demo.update(changed as? List ?? demo.current, selection: selection)
        // The anchor alone is nothing to show; the selection, or the state a delegate method
        // changed (a counter), is.
        let visible = ListSelection(selection) != ListSelection(before) || demo.persistentState() != oldState
        if visible { transaction.apply(snapshot, animatingDifferences: false) }
        if change.isUserInteraction, let item = change.primaryActionItem, let action = changed.primaryAction(for: item) as? List.Action {
            // The list's own action, in the same write: its changes are the next version. One the
            // list refuses changes nothing; the tap's selection stands (a tap cannot fail in UIKit).
            do {
                try demo.performTyped(action, on: transaction)
                return true
            } catch {
                return visible
            }
        }
        return visible
    }

    /// Runs an action of a ``SelectableList`` with its selection (`perform(_:on:selection:)`),
    /// its errors as the API answers them.
    static func runSelecting(_ action: List.Action, on list: inout List, snapshot: inout Snapshot<List.SectionID, List.ItemID>,
                             selection: inout ItemSelection<String>) throws(ActionError) {
        guard let selectable = list as? any SelectableList else { return try run(action, on: &list, snapshot: &snapshot) }
        try runSelecting(selectable, action, on: &list, snapshot: &snapshot, selection: &selection)
    }

    private static func runSelecting<Selectable: SelectableList>(_ selectable: Selectable, _ action: List.Action, on list: inout List,
                                                                 snapshot: inout Snapshot<List.SectionID, List.ItemID>,
                                                                 selection: inout ItemSelection<String>) throws(ActionError) {
        // `Selectable` is `List` (the list was cast to it): the casts only name it so.
        var typed = selectable
        guard let action = action as? Selectable.Action,
              var items = snapshot as? Snapshot<Selectable.SectionID, String> else { return try run(action, on: &list, snapshot: &snapshot) }
        do {
            try typed.perform(action, on: &items, selection: &selection)
        } catch {
            throw actionError(error)
        }
        if let changed = typed as? List, let changedItems = items as? Snapshot<List.SectionID, List.ItemID> {
            list = changed
            snapshot = changedItems
        }
    }

    /// The list's settings in the editing mode the framework keeps (``SelectableList/selectionSettings``
    /// says what may be selected; `isEditing` is the selection's own, changed by `…/editing` or an
    /// action's `selection.setEditing(_:)`).
    static func settings(of list: any SelectableList, editing: Bool) -> SelectionSettings {
        var settings = list.selectionSettings
        settings.isEditing = editing
        return settings
    }

    /// Sorted keys: the same selection, the same text, so that a request that changes nothing
    /// (a second Done) is no new version.
    private static var selectionEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// The selection's part of the saved state (empty when there is nothing to keep).
    func savedSelection(_ selection: ItemSelection<String>) -> [String: String] {
        guard registration.isSelectable, selection != ItemSelection(settings: selection.settings) || selection.settings != SelectionSettings(),
              let data = try? Self.selectionEncoder.encode(selection) else { return [:] }
        return [Self.selectionKey: String(decoding: data, as: UTF8.self)]
    }

    /// The selection a saved state holds (an unreadable one is none: the list keeps working).
    func restoredSelection(from state: [String: String]) -> ItemSelection<String>? {
        guard registration.isSelectable, let text = state[Self.selectionKey] else { return nil }
        return try? JSONDecoder().decode(ItemSelection<String>.self, from: Data(text.utf8))
    }
}

/// How a selectable list's page presents it (``SelectableList/rowsHoldControls``).
protocol SelectionPatternServing: Demo {
    /// Whether the page's selection is the WAI-ARIA grid pattern rather than a listbox.
    var selectionIsGrid: Bool { get }
}
