/// Why an operation on an ``ItemSelection`` was rejected.
///
/// UIKit selects by index path and traps on one outside the collection view; an
/// ``ItemSelection`` selects by identifier and throws instead, so that a stale or forged request
/// from a browser becomes a clear error. Every case names the culprits (rendered with
/// `String(describing:)`), and a rejected operation leaves the selection exactly as it was.
///
/// ```swift
/// do { try selection.selectItem(42, in: snapshot) }
/// catch { print(error.code, error) }   // unknown_items, Cannot select items the list does not contain: 42
/// ```
public enum SelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Items the snapshot does not contain.
    case unknownItems([String])
    /// Items added to a single-selection list's selection that would leave more than one item
    /// selected: the first item that would have been second, and the one it would have joined.
    case multipleSelectionNotAllowed(item: String, alreadySelected: String)

    /// A stable machine-readable code (for JSON errors).
    public var code: String {
        switch self {
        case .unknownItems: "unknown_items"
        case .multipleSelectionNotAllowed: "multiple_selection_not_allowed"
        }
    }

    public var description: String {
        switch self {
        case .unknownItems(let ids):
            let shown = ids.prefix(10).joined(separator: ", ")
            return "Cannot select items the list does not contain: " + (ids.count > 10 ? "\(shown) … (\(ids.count) in all)" : shown)
        case .multipleSelectionNotAllowed(let item, let selected):
            return "Cannot add \(item) to the selection: the list allows one selected item, and \(selected) is selected"
        }
    }
}

extension SelectionError {
    static func unknownItems<T>(of ids: some Sequence<T>) -> SelectionError {
        .unknownItems(ids.map { String(describing: $0) })
    }

    static func multipleSelectionNotAllowed<T>(adding item: T, to alreadySelected: T) -> SelectionError {
        .multipleSelectionNotAllowed(item: String(describing: item), alreadySelected: String(describing: alreadySelected))
    }
}
