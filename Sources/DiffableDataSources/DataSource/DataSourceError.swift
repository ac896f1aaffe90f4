/// Why a data source refused an operation. The current snapshot is unchanged when one is thrown.
public enum DataSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The requested snapshot breaks a snapshot rule.
    case snapshot(SnapshotError)
    /// No `canReorderItem` handler is set, or it refused this item.
    case reorderingNotAllowed(item: String)
    /// The destination of a reorder is outside the snapshot.
    case invalidDestination(String)
    /// Expanding or collapsing an item that no section snapshot of this data source holds.
    case notInOutline(item: String)

    public var code: String {
        switch self {
        case .snapshot(let error): error.code
        case .reorderingNotAllowed: "reordering_not_allowed"
        case .invalidDestination: "invalid_destination"
        case .notInOutline: "not_in_outline"
        }
    }

    public var description: String {
        switch self {
        case .snapshot(let error): error.description
        case .reorderingNotAllowed(let item): "Item \(item) cannot be reordered"
        case .invalidDestination(let what): "Invalid reorder destination: \(what)"
        case .notInOutline(let item): "Item \(item) is not in a section snapshot of this data source"
        }
    }
}
