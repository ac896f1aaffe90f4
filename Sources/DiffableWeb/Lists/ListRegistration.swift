import Logging

/// What every session of one registered ``WebList`` shares: its actions' schema, the values
/// the app gave it (``Shared``), and, by its capabilities, its cells (``SharedCells``) and its
/// derived snapshots (``DerivedList``). Made once, by ``WebList/descriptor(sharing:)``.
final class ListRegistration<List: WebList>: Sendable {
    let schema: ActionSchema
    let shared: SharedValues
    /// Each item's cell, made once for every session (``SharedCells``).
    let cells: SharedCache<String, CellContent>?
    let derived: DerivedOperations<List>?
    let reorderable: Bool
    /// The capabilities the adapter asks about on every write or event, found once (a
    /// conformance check per call was measurable on a keystroke).
    let hasOutline: Bool
    let doesBackgroundWork: Bool
    let hasPageState: Bool
    let hasItemData: Bool
    let hasSupplementaryViews: Bool
    let isSelectable: Bool
    /// ``SelectableList/rowsHoldControls``: the page's selection is a grid.
    let selectionIsGrid: Bool
    let isDeletable: Bool
    let hasAccessories: Bool
    let logger = Logger(label: "DiffableWeb")

    init(schema: ActionSchema, shared: SharedValues) {
        self.schema = schema
        self.shared = shared
        cells = List.self is any SharedCells.Type ? SharedCache(entryLimit: 200_000, bytesPerEntry: 256) : nil
        derived = (List.self as? any DerivedList.Type).flatMap { Self.derivedSnapshots(of: $0) }
        reorderable = List.self is any Reorderable.Type
        hasOutline = List.self is any ExpandableOutline.Type
        doesBackgroundWork = List.self is any BackgroundWork.Type
        hasPageState = List.self is any PageState.Type
        hasItemData = List.self is any ItemData.Type
        hasSupplementaryViews = List.self is any SupplementaryViews.Type
        isSelectable = List.self is any SelectableList.Type
        selectionIsGrid = (List.self as? any SelectableList.Type)?.rowsHoldControls ?? false
        isDeletable = List.self is any DeletableList.Type
        hasAccessories = List.self is any AccessorizedList.Type
    }

    /// The shared snapshots of `Derived`, which is `List` (checked): the calls are typed.
    private static func derivedSnapshots<Derived: DerivedList>(of type: Derived.Type) -> DerivedOperations<List>? {
        guard Derived.self == List.self else { return nil }
        let cache = DerivedSnapshots<Derived>()
        return DerivedOperations(
            snapshot: { list in cache.snapshot(of: unsafeBitCast(list, to: Derived.self)) },
            transition: { old, new, current in
                cache.transition(from: unsafeBitCast(old, to: Derived.self), to: unsafeBitCast(new, to: Derived.self), current: current)
            },
            same: { unsafeBitCast($0, to: Derived.self) == unsafeBitCast($1, to: Derived.self) },
            pageQuery: Derived.pageQuery)
    }

    /// A new session's state, with the app's shared values.
    func makeList() -> List { shared.providing { List() } }
}

/// A ``Shared`` property seen through a `Mirror`: whether the app registered its value.
protocol SharedAvailability {
    var isAvailable: Bool { get }
}

extension Shared: SharedAvailability {}
