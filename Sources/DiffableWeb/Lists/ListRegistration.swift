import Logging

/// What every session of one registered ``WebList`` shares: its actions' schema, the values
/// the app gave it (``Shared``), and, by its capabilities, its cells (``SharedCells``) and its
/// derived snapshots (``DerivedList``). Made once, by ``WebList/descriptor(sharing:)``.
final class ListRegistration<List: WebList>: Sendable {
    let schema: ActionSchema
    let shared: SharedValues
    /// Each item's cell, made once for every session (``SharedCells``).
    let cells: SharedCache<String, CellContent>?
    let derived: (any DerivedSnapshotting)?
    let reorderable: Bool
    let logger = Logger(label: "DiffableWeb")

    init(schema: ActionSchema, shared: SharedValues) {
        self.schema = schema
        self.shared = shared
        cells = List.self is any SharedCells.Type ? SharedCache(entryLimit: 200_000, bytesPerEntry: 256) : nil
        derived = (List.self as? any DerivedList.Type).map { Self.derivedSnapshots(of: $0) }
        reorderable = List.self is any Reorderable.Type
    }

    private static func derivedSnapshots<Derived: DerivedList>(of type: Derived.Type) -> any DerivedSnapshotting {
        DerivedSnapshots<Derived>()
    }

    /// A new session's state, with the app's shared values.
    func makeList() -> List { shared.providing { List() } }
}

/// A ``Shared`` property seen through a `Mirror`: whether the app registered its value.
protocol SharedAvailability {
    var isAvailable: Bool { get }
}

extension Shared: SharedAvailability {}
