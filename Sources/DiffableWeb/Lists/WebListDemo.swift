import CompositionalLayout
import DiffableDataSources
import Foundation
import Synchronization

/// A ``WebList`` served through the web layer's list machinery: one per session, holding the
/// list's value (its state). The lock is the framework's, never held while list code runs:
/// an action runs on a copy of the value, inside the list's one writer, and the copy replaces
/// the value when the action returned (before the change is published, so the new cells show
/// the new state). A refused write gets the value from before back (``restore(_:)``).
final class WebListDemo<List: WebList>: Demo {
    struct Value: Sendable {
        var list: List
        /// A script edited a ``DerivedList``'s items: they are not its state's until the next action.
        var edited = false
        /// ``persistentState()`` of this value, once asked (a write asks before and after).
        var saved: [String: String]?
        /// ``pageValues()`` of this value, once asked.
        var page: [String: String]?
        /// Bumped with every new value: what was made of one is not kept for another.
        var generation = 0
        /// A ``SelectableList``'s selection, kept beside its state (`+Selection`).
        var selection = ItemSelection<String>()
    }
    let value: Mutex<Value>
    let registration: ListRegistration<List>
    /// A ``BackgroundWork`` list's jobs (`+Work`).
    let work = Mutex(Work())
    let reconciling = Mutex(())

    init(registration: ListRegistration<List>) {
        self.registration = registration
        value = Mutex(Value(list: registration.makeList()))
    }

    var current: List { value.withLock { $0.list } }

    /// Replaces the list's value (after an action, a reorder, an edit); the selection stays
    /// unless given.
    func update(_ list: List, edited: Bool = false, selection: ItemSelection<String>? = nil) {
        value.withLock { $0 = Value(list: list, edited: edited, generation: $0.generation + 1, selection: selection ?? $0.selection) }
        if doesBackgroundWork { reconcileJobs() }
    }

    func initialSnapshot() -> Snapshot<String, String> {
        let list = current
        if let derived = registration.derived { return derived.snapshot(list) }
        // A list whose own initial items are not unique starts empty; the page and the API
        // say nothing is wrong with the request, and the server's log names the duplicate.
        return (try? WireIdentifiers.wire(list.initialSnapshot())) ?? Snapshot()
    }

    func layout() -> CompositionalLayout { current.layout() }

    func cell(for item: String) -> CellContent? {
        if let cells = registration.cells {
            if let made = cells.value(for: item) { return made }
            guard let made = makeCell(for: item, of: current) else { return nil }
            cells.insert(made, for: item)
            return made
        }
        return makeCell(for: item, of: current)
    }

    /// What a script sees of an item: its cell's values, less its own identifier (the item
    /// carries it already).
    func data(for item: String) -> [String: String]? {
        if registration.hasItemData, let list = current as? any ItemData { return Self.data(for: item, of: list) }
        guard var values = cell(for: item)?.values else { return nil }
        if values["id"] == item { values["id"] = nil }
        return values
    }

    private static func data<Items: ItemData>(for item: String, of list: Items) -> [String: String]? {
        guard let id = Items.ItemID(item), let data = list.data(for: id) else { return nil }
        return try? CellValues.encode(data)
    }

    private func makeCell(for item: String, of list: List) -> CellContent? {
        guard let id = List.ItemID(item), let cell = list.cell(for: id), let content = Self.content(cell, template: List.cellTemplate) else { return nil }
        return registration.hasAccessories ? Self.accessorized(content, item: id, of: list) : content
    }

    /// A typed cell's template and values (a ``TemplatedCell`` names its own template, which
    /// is not one of its values).
    static func content<Cell: Encodable>(_ cell: Cell, template: String) -> CellContent? {
        guard var values = try? CellValues.encode(cell) else { return nil }
        guard let templated = cell as? any TemplatedCell else { return CellContent(template: template, values: values) }
        values["template"] = nil
        return CellContent(template: templated.template, values: values)
    }

    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? {
        guard registration.hasSupplementaryViews, let list = current as? any SupplementaryViews else { return nil }
        return Self.supplementary(of: list, kind: kind, section: section, in: snapshot)
    }

    private static func supplementary<Views: SupplementaryViews>(of list: Views, kind: CellKind, section: String,
                                                                 in snapshot: Snapshot<String, String>) -> CellContent? {
        guard let id = Views.SectionID(section),
              let typed = try? WireIdentifiers.typed(snapshot, as: Snapshot<Views.SectionID, Views.ItemID>.self, list: Views.name),
              let view = list.supplementary(kind, in: id, of: typed) else { return nil }
        return content(view, template: view.template)
    }

    func perform(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) {
        _ = try performReporting(action, parameters: parameters, on: list)
    }

    func performReporting(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) -> ActionReport? {
        if registration.reorderable, action == ReorderAction.name { return try reorder(parameters, on: list) }
        let typed = try ActionDecoding.decode(List.Action.self, name: action, parameters: parameters, schema: registration.schema)
        try performTyped(typed, on: list)
        return nil
    }

    /// Runs a decoded action of the list (a request's, or a ``SelectableList``'s primary action).
    func performTyped(_ typed: List.Action, on list: ListTransaction) throws(ActionError) {
        if hasOutline, try performOutline(typed, on: list) { return }
        let before = value.withLock { $0 }
        var changed = before.list
        if let derived = registration.derived {
            // Only the state changes; the items are what it derives.
            var scratch = try WireIdentifiers.typed(list.snapshot(), as: Snapshot<List.SectionID, List.ItemID>.self, list: List.name)
            try Self.run(typed, on: &changed, snapshot: &scratch)
            let current = list.snapshot()
            if !before.edited, let step = derived.transition(before.list, changed, current) {
                _ = list.apply(step, animatingDifferences: true)
            } else {
                _ = list.apply(derived.snapshot(changed), animatingDifferences: true)
            }
        } else {
            let current = list.snapshot()
            var snapshot = current
            var selection = before.selection
            if registration.isSelectable {
                try Self.mutate(&changed, snapshot: &snapshot) { list, items throws(ActionError) in
                    try Self.runSelecting(typed, on: &list, snapshot: &items, selection: &selection)
                }
            } else {
                try Self.perform(typed, on: &changed, snapshot: &snapshot)
            }
            // An action that changed nothing (a second like) is not applied: no version, no
            // event. One that changed only the state (a pause) is: its status is news.
            if WireIdentifiers.changes(snapshot, from: current) {
                _ = list.apply(snapshot, animatingDifferences: true)
            } else {
                let before = persistentState()
                update(changed, selection: selection)
                if persistentState() != before { _ = list.apply(snapshot, animatingDifferences: true) }
                return
            }
            update(changed, selection: selection)
            return
        }
        update(changed)
    }

    /// Runs the list's action on the wire snapshot.
    private static func perform(_ action: List.Action, on list: inout List, snapshot: inout Snapshot<String, String>) throws(ActionError) {
        try mutate(&list, snapshot: &snapshot) { list, typed throws(ActionError) in try run(action, on: &list, snapshot: &typed) }
    }

    /// Runs `body` on the list and the wire snapshot, typed (in place when the identifiers are
    /// strings: the write keeps its journal, and its apply costs what changed).
    static func mutate(_ list: inout List, snapshot: inout Snapshot<String, String>,
                       _ body: (inout List, inout Snapshot<List.SectionID, List.ItemID>) throws(ActionError) -> Void) throws(ActionError) {
        if List.SectionID.self == String.self, List.ItemID.self == String.self {
            // The same type (checked by its metatypes: no dynamic cast on a keystroke).
            var typed = unsafeBitCast(snapshot, to: Snapshot<List.SectionID, List.ItemID>.self)
            try body(&list, &typed)
            snapshot = unsafeBitCast(typed, to: Snapshot<String, String>.self)
        } else {
            var typed = try WireIdentifiers.typed(snapshot, as: Snapshot<List.SectionID, List.ItemID>.self, list: List.name)
            try body(&list, &typed)
            do { snapshot = try WireIdentifiers.wire(typed) } catch { throw .snapshot(error) }
        }
    }

    /// The list's own `perform`, its errors as the API answers them.
    static func run(_ action: List.Action, on list: inout List, snapshot: inout Snapshot<List.SectionID, List.ItemID>) throws(ActionError) {
        do {
            try list.perform(action, on: &snapshot)
        } catch {
            throw actionError(error)
        }
    }

    /// A list's error as the API answers it.
    static func actionError(_ error: any Error) -> ActionError {
        switch error {
        case let error as ActionError: error
        case let error as SnapshotError: .snapshot(error)
        default: .unprocessable(code: "action_failed", message: "\(error)")
        }
    }

    func status(of snapshot: Snapshot<String, String>) -> String {
        guard let typed = try? WireIdentifiers.typed(snapshot, as: Snapshot<List.SectionID, List.ItemID>.self, list: List.name) else {
            return "\(snapshot.numberOfItems) items"
        }
        return current.status(of: typed)
    }

    func details(of snapshot: Snapshot<String, String>) -> String {
        guard let typed = try? WireIdentifiers.typed(snapshot, as: Snapshot<List.SectionID, List.ItemID>.self, list: List.name) else {
            return ""
        }
        return current.details(of: typed)
    }

    /// Made once per value (the page's state rides on every event).
    func pageValues() -> [String: String] {
        guard registration.hasPageState else { return [:] }
        let (made, list, generation) = value.withLock { ($0.page, $0.list, $0.generation) }
        if let made { return made }
        guard let page = list as? any PageState else { return [:] }
        let values = Self.pageValues(of: page)
        value.withLock { value in
            if value.generation == generation { value.page = values }  // unless the value changed meanwhile
        }
        return values
    }

    static func pageValues<Page: PageState>(of list: Page) -> [String: String] {
        (try? CellValues.encode(list.pageValues)) ?? [:]
    }

    var sharesCellContent: Bool { registration.cells != nil }
}
