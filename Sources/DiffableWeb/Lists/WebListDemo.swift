import CompositionalLayout
import DiffableDataSources
import Foundation
import Synchronization

/// A ``WebList`` served through the web layer's list machinery: one per session, holding the
/// list's value (its state). The lock is the framework's, never held while list code runs:
/// an action runs on a copy of the value, inside the list's one writer, and the copy replaces
/// the value when the action returned (before the change is published, so the new cells show
/// the new state). A refused write gets the value from before back (``restore(state:)``).
final class WebListDemo<List: WebList>: Demo {
    private let value: Mutex<List>
    private let schema: ActionSchema

    init(schema: ActionSchema) {
        self.value = Mutex(List())
        self.schema = schema
    }

    var current: List { value.withLock { $0 } }

    func initialSnapshot() -> Snapshot<String, String> {
        // A list whose own initial items are not unique starts empty; the page and the API
        // say nothing is wrong with the request, and the server's log names the duplicate.
        (try? Self.wire(current.initialSnapshot())) ?? Snapshot()
    }

    func layout() -> CompositionalLayout { current.layout() }

    func cell(for item: String) -> CellContent? {
        guard let id = List.ItemID(item), let cell = current.cell(for: id), let values = try? CellValues.encode(cell) else { return nil }
        return CellContent(template: List.cellTemplate, values: values)
    }

    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    func perform(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) {
        let action = try ActionDecoding.decode(List.Action.self, name: action, parameters: parameters, schema: schema)
        var changed = current
        try list.update(animatingDifferences: true) { (snapshot: inout Snapshot<String, String>) throws(ActionError) in
            try Self.perform(action, on: &changed, snapshot: &snapshot)
        }
        value.withLock { $0 = changed }
    }

    /// Runs the list's action on the wire snapshot (typed in place when the identifiers are
    /// strings: the write keeps its journal, and its apply costs what changed).
    private static func perform(_ action: List.Action, on list: inout List, snapshot: inout Snapshot<String, String>) throws(ActionError) {
        do {
            if var typed = snapshot as? Snapshot<List.SectionID, List.ItemID> {
                try list.perform(action, on: &typed)
                guard let wire = typed as? Snapshot<String, String> else { return }
                snapshot = wire
            } else {
                var typed = try typedSnapshot(snapshot)
                try list.perform(action, on: &typed)
                snapshot = try wire(typed)
            }
        } catch let error as ActionError {
            throw error
        } catch let error as SnapshotError {
            throw .snapshot(error)
        } catch {
            throw .unprocessable(code: "action_failed", message: "\(error)")
        }
    }

    func status(of snapshot: Snapshot<String, String>) -> String {
        guard let typed = try? Self.typedSnapshot(snapshot) else { return "\(snapshot.numberOfItems) items" }
        return current.status(of: typed)
    }

    func pageValues() -> [String: String] { [:] }

    /// The value, as JSON under `state` (what the store saves with the list).
    func persistentState() -> [String: String] {
        guard let data = try? JSONEncoder().encode(current) else { return [:] }
        return ["state": String(decoding: data, as: UTF8.self)]
    }

    func restore(state: [String: String]) {
        guard let json = state["state"], let restored = try? JSONDecoder().decode(List.self, from: Data(json.utf8)) else { return }
        value.withLock { $0 = restored }
    }

    // MARK: Identifiers on the wire

    /// The typed snapshot of a wire one.
    /// - Throws: ``ActionError/unprocessable(code:message:)`` (`invalid_identifier`) naming an
    ///   identifier a script put in the list that is not one of the list's (not an integer, …).
    static func typedSnapshot(_ snapshot: Snapshot<String, String>) throws(ActionError) -> Snapshot<List.SectionID, List.ItemID> {
        if let same = snapshot as? Snapshot<List.SectionID, List.ItemID> { return same }
        var typed = Snapshot<List.SectionID, List.ItemID>()
        for section in snapshot.sectionIdentifiers {
            guard let id = List.SectionID(section) else { throw Self.invalid(section) }
            let items = (try? snapshot.itemIdentifiers(inSection: section)) ?? []
            var ids: [List.ItemID] = []
            ids.reserveCapacity(items.count)
            for item in items {
                guard let typedItem = List.ItemID(item) else { throw Self.invalid(item) }
                ids.append(typedItem)
            }
            do {
                try typed.appendSections([id])
                try typed.appendItems(ids, toSection: id)
            } catch {
                throw .snapshot(error)
            }
        }
        return typed
    }

    /// The wire snapshot of a typed one (identifiers as their text).
    static func wire(_ typed: Snapshot<List.SectionID, List.ItemID>) throws(SnapshotError) -> Snapshot<String, String> {
        if let same = typed as? Snapshot<String, String> { return same }
        var wire = Snapshot<String, String>()
        for section in typed.sectionIdentifiers {
            let text = section.description
            try wire.appendSections([text])
            try wire.appendItems(((try? typed.itemIdentifiers(inSection: section)) ?? []).map(\.description), toSection: text)
        }
        return wire
    }

    private static func invalid(_ identifier: String) -> ActionError {
        .unprocessable(code: "invalid_identifier", message: "“\(identifier)” is not an identifier of \(List.name)")
    }
}
