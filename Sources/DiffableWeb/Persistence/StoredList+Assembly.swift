import DiffableDataSources
import Foundation

/// Why a stored list could not be read back.
public struct StoredListError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

extension StoredList {
    /// A list from its stored parts: the checkpoint (`base`, the identifiers at `baseVersion`)
    /// with every later change applied in order, and the events of the newest run of
    /// consecutive changes (what a client can replay).
    ///
    /// A `derived` list (``ListWrite/derived``) is its state only: `base` and `changes` are
    /// not read, and it has no sections and no events.
    /// - Throws: ``StoredListError`` when a change is missing or does not apply (a damaged
    ///   store: the caller starts the list afresh rather than show something wrong).
    public static func assemble(demo: String, version: Int, epoch: String, state: String, baseVersion: Int, base: String,
                         changes: [StoredChange], derived: Bool = false) throws -> StoredList {
        let decoder = JSONDecoder()
        if derived {
            return StoredList(demo: demo, version: version, epoch: epoch, sections: [],
                              state: try decoder.decode([String: String].self, from: Data(state.utf8)), derived: true)
        }
        let sections = try decoder.decode([StoredSection].self, from: Data(base.utf8))
        let state = try decoder.decode([String: String].self, from: Data(state.utf8))
        var result = StoredList(demo: demo, version: version, epoch: epoch, sections: sections, state: state)
        let pending = changes.filter { $0.version > baseVersion && $0.version <= version }
        if !pending.isEmpty {
            var snapshot = try result.snapshot()
            var expected = baseVersion + 1
            for change in pending {
                guard change.version == expected, let text = change.changeset else {
                    throw StoredListError(description: "\(demo): change \(expected) is missing")
                }
                snapshot = try snapshot.applying(StoredChangeset.decode(text))
                expected += 1
            }
            result.sections = snapshot.sectionIdentifiers.map {
                StoredSection(id: $0, items: (try? snapshot.itemIdentifiers(inSection: $0)) ?? [])
            }
        }
        guard pending.last?.version ?? baseVersion == version else {
            throw StoredListError(description: "\(demo): changes end at \(pending.last?.version ?? baseVersion), the list is at \(version)")
        }
        // The newest consecutive run ending at the list's version.
        var start = changes.count, next = version
        while start > 0, changes[start - 1].version == next {
            start -= 1
            next -= 1
        }
        result.events = changes[start...].map(\.event)
        return result
    }

    /// The stored identifiers as a snapshot.
    public func snapshot() throws -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        for section in sections {
            try snapshot.appendSections([section.id])
            try snapshot.appendItems(section.items, toSection: section.id)
        }
        return snapshot
    }

    /// The identifiers of a snapshot, as stored.
    public static func sections(of snapshot: Snapshot<String, String>) -> [StoredSection] {
        snapshot.sectionIdentifiers.map { StoredSection(id: $0, items: (try? snapshot.itemIdentifiers(inSection: $0)) ?? []) }
    }

    /// Sections as the store's JSON (hand-written: `JSONEncoder` was most of a save's time on
    /// a 10,000-item list).
    public static func json(_ sections: [StoredSection]) -> String {
        var writer = JSONWriter(capacity: 64 + sections.reduce(0) { $0 + $1.items.count } * 12)
        writer.array(sections) { w, section in
            w.raw("{\"id\":"); w.string(section.id)
            w.raw(",\"items\":"); w.array(section.items) { $0.string($1) }
            w.raw("}")
        }
        return writer.text
    }

    /// A demo's state as the store's JSON object (keys sorted, so equal states are equal text).
    public static func json(_ state: [String: String]) -> String {
        var writer = JSONWriter(capacity: 32 + state.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        writer.raw("{")
        for (index, key) in state.keys.sorted().enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(key); writer.raw(":"); writer.string(state[key] ?? "")
        }
        writer.raw("}")
        return writer.text
    }
}
