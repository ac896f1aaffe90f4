@testable import DiffableDataSources

/// The obvious, slow model of a snapshot: an array of (section, items). Property tests run
/// the same operations on both and compare.
struct SnapshotModel: Equatable {
    var sections: [(id: String, items: [Int])] = []

    static func == (lhs: SnapshotModel, rhs: SnapshotModel) -> Bool {
        lhs.sections.map(\.id) == rhs.sections.map(\.id) && lhs.sections.map(\.items) == rhs.sections.map(\.items)
    }

    init(_ snapshot: Snapshot<String, Int>) {
        sections = snapshot.sectionIdentifiers.map { ($0, (try? snapshot.itemIdentifiers(inSection: $0)) ?? []) }
    }

    init() {}

    var allItems: [Int] { sections.flatMap(\.items) }
}

/// Builds a snapshot from a literal description, e.g. `["a": [1, 2], "b": [3]]` in order.
func makeSnapshot(_ layout: KeyValuePairs<String, [Int]>) throws -> Snapshot<String, Int> {
    var snapshot = Snapshot<String, Int>()
    for (section, items) in layout {
        try snapshot.appendSections([section])
        try snapshot.appendItems(items, toSection: section)
    }
    return snapshot
}

func makeSnapshot(_ layout: [(String, [Int])]) throws -> Snapshot<String, Int> {
    var snapshot = Snapshot<String, Int>()
    for (section, items) in layout {
        try snapshot.appendSections([section])
        try snapshot.appendItems(items, toSection: section)
    }
    return snapshot
}
