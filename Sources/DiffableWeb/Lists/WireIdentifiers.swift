import DiffableDataSources

/// A typed list's snapshot and the web layer's, whose identifiers are their text (the wire
/// protocol, the store and the API carry strings). Lists whose identifiers are strings pay
/// nothing: the snapshot is the same value.
enum WireIdentifiers {
    /// Whether `snapshot`, made from `before` (a data source's, which holds no marks), changes
    /// anything an apply shows: other items or order, or a reload or reconfigure mark.
    static func changes(_ snapshot: Snapshot<String, String>, from before: Snapshot<String, String>) -> Bool {
        !snapshot.reloadedItemIdentifiers.isEmpty || !snapshot.reconfiguredItemIdentifiers.isEmpty
            || !snapshot.reloadedSectionIdentifiers.isEmpty || !snapshot.isIdentical(to: before)
    }

    /// The wire snapshot of a typed one.
    static func wire<S: LosslessStringConvertible, I: LosslessStringConvertible>(_ typed: Snapshot<S, I>) throws(SnapshotError) -> Snapshot<String, String> {
        // The same type (checked by its metatypes, not a dynamic cast of the value: this runs on every event).
        if S.self == String.self, I.self == String.self { return unsafeBitCast(typed, to: Snapshot<String, String>.self) }
        var wire = Snapshot<String, String>()
        for section in typed.sectionIdentifiers {
            let text = section.description
            try wire.appendSections([text])
            try wire.appendItems(((try? typed.itemIdentifiers(inSection: section)) ?? []).map(\.description), toSection: text)
        }
        return wire
    }

    /// The typed snapshot of a wire one.
    /// - Throws: ``ActionError/unprocessable(code:message:)`` (`invalid_identifier`) naming an
    ///   identifier a script put in the list that is not one of the list's (not an integer, …).
    static func typed<S: LosslessStringConvertible, I: LosslessStringConvertible>(
        _ snapshot: Snapshot<String, String>, as type: Snapshot<S, I>.Type, list name: @autoclosure () -> String
    ) throws(ActionError) -> Snapshot<S, I> {
        if S.self == String.self, I.self == String.self { return unsafeBitCast(snapshot, to: Snapshot<S, I>.self) }
        var typed = Snapshot<S, I>()
        for section in snapshot.sectionIdentifiers {
            guard let id = S(section) else { throw invalid(section, name()) }
            let items = (try? snapshot.itemIdentifiers(inSection: section)) ?? []
            var ids: [I] = []
            ids.reserveCapacity(items.count)
            for item in items {
                guard let typedItem = I(item) else { throw invalid(item, name()) }
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

    private static func invalid(_ identifier: String, _ name: String) -> ActionError {
        .unprocessable(code: "invalid_identifier", message: "“\(identifier)” is not an identifier of \(name)")
    }
}
