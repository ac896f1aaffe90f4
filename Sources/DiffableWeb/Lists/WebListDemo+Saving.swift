import DiffableDataSources
import Foundation

// A typed list's state across restarts and refused writes: its flat keys (or JSON under
// `state` when it nests), and `edited` for a derived list a script edited. A state saved by the
// untyped API before the list was typed reads back the same way.
extension WebListDemo {
    /// A flat state (strings, numbers, booleans: most lists') as its keys' text, as the untyped
    /// API saved it; any other as JSON under `state`. A derived list a script edited adds
    /// `edited` (the flat state's key for it before the list was typed).
    func persistentState() -> [String: String] {
        value.withLock { value in
            if let saved = value.saved { return saved }
            var saved: [String: String]
            if let flat = try? CellValues.encode(value.list) {
                saved = flat
            } else {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys  // the same state, the same text: saved once
                do {
                    saved = ["state": String(decoding: try encoder.encode(value.list), as: UTF8.self)]
                } catch {
                    // Not saved, and said so: the list keeps working, a restart starts it anew.
                    registration.logger.error("\(List.name): its state cannot be saved: \(error)")
                    saved = [:]
                }
            }
            if value.edited { saved["edited"] = "true" }
            saved.merge(savedSelection(value.selection)) { $1 }
            value.saved = saved
            return saved
        }
    }

    func restore(state: [String: String]) {
        let restored: List? = registration.shared.providing {
            if let json = state["state"] { return try? JSONDecoder().decode(List.self, from: Data(json.utf8)) }
            if let flat = try? List(from: FlatStateDecoder(values: state)) { return flat }
            guard let upgrading = List.self as? any UpgradesUntypedState.Type else { return nil }
            return upgrading.init(untypedState: state) as? List
        }
        guard let restored else { return }
        update(restored, edited: registration.derived != nil && state["edited"] == "true",
               selection: restoredSelection(from: state) ?? ItemSelection(settings: SelectionSettings()))
    }

    // MARK: Derived lists

    var derivesList: Bool { registration.derived != nil && !value.withLock { $0.edited } }

    func derivedSnapshot() -> Snapshot<String, String>? {
        guard let derived = registration.derived else { return nil }
        let value = value.withLock { $0 }
        return value.edited ? nil : derived.snapshot(value.list)
    }

    func didEditList() {
        guard registration.derived != nil, let list = current as? any DerivedList else { return }
        update(Self.edited(list) as? List ?? current, edited: true)
    }

    private static func edited<Derived: DerivedList>(_ list: Derived) -> Derived {
        var list = list
        list.didEditList()
        return list
    }

    /// What a page URL's query previews: the items its action would derive, computed aside.
    func pagePreview(query: [String: String]) -> PagePreview? {
        guard let derived = registration.derived, let pageQuery = derived.pageQuery,
              let text = query[pageQuery.name] else { return nil }
        let parameters = ActionParameters([pageQuery.parameter: text])
        guard let action = try? ActionDecoding.decode(List.Action.self, name: pageQuery.action, parameters: parameters,
                                                       schema: registration.schema) else { return nil }
        let before = value.withLock { $0 }
        var changed = before.list
        var scratch = Snapshot<List.SectionID, List.ItemID>()
        guard (try? Self.run(action, on: &changed, snapshot: &scratch)) != nil,
              before.edited || !derived.same(before.list, changed),
              case let snapshot = derived.snapshot(changed),
              let typed = try? WireIdentifiers.typed(snapshot, as: Snapshot<List.SectionID, List.ItemID>.self, list: List.name) else {
            return nil
        }
        var values: [String: String] = [:]
        if let page = changed as? any PageState { values = Self.pageValues(of: page) }
        return PagePreview(snapshot: snapshot, status: changed.status(of: typed), values: values,
                           action: pageQuery.action, parameters: [pageQuery.parameter: values[pageQuery.parameter] ?? text])
    }
}

// A refused or undone write puts the value back as it was: kept, not encoded and decoded.
extension WebListDemo: KeepsStateValue {
    func checkpoint() -> DemoCheckpoint { .kept(value.withLock { $0 }) }

    func restore(_ checkpoint: DemoCheckpoint) {
        guard case .kept(let kept) = checkpoint, let kept = kept as? Value else { return }
        // What was made of the kept value (its saved form, its page values) is still its own.
        value.withLock { value in
            let generation = value.generation + 1
            value = kept
            value.generation = generation
        }
        if doesBackgroundWork { reconcileJobs() }
    }
}
