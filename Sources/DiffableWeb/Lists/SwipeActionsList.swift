import DiffableDataSources

/// A list whose rows offer swipe actions (UIKit's list configuration's
/// `leadingSwipeActionsConfigurationProvider` and `trailingSwipeActionsConfigurationProvider`):
/// a drag or a touch swipe reveals them under the row, a full swipe performs the outermost,
/// and a row's "Actions" menu offers them to the keyboard. Scripts list and perform them
/// through `…/swipe-actions`.
///
/// Performing one runs ``performSwipeAction(_:on:list:)`` inside a write, on the list's state
/// and items, as UIKit runs the action's handler; its `Bool` is the handler's
/// `completion(_:)`: `false` puts the row back and changes nothing.
///
/// ```swift
/// struct Inbox: SwipeActionsList {
///     var flagged: Set<String> = []
///     func leadingSwipeActions(for item: String) -> SwipeActionsConfiguration? {
///         SwipeActionsConfiguration(actions: [ContextualAction(style: .normal, title: "Flag", identifier: "flag")])
///     }
///     mutating func performSwipeAction(_ identifier: String, on item: String,
///                                      list: inout Snapshot<String, String>) throws -> Bool {
///         flagged.insert(item)
///         try list.reconfigureItems([item])   // the row updates in place
///         return true
///     }
///     …
/// }
/// ```
public protocol SwipeActionsList: WebList {
    /// The actions a swipe from the leading edge (rightwards, in a left-to-right page) reveals,
    /// `actions[0]` leftmost; `nil` for none. Default: none.
    func leadingSwipeActions(for item: ItemID) -> SwipeActionsConfiguration?
    /// The actions a swipe from the trailing edge reveals, `actions[0]` rightmost; `nil` for
    /// none. Default: none.
    func trailingSwipeActions(for item: ItemID) -> SwipeActionsConfiguration?

    /// The handler of the action `identifier` (one that `item` offers: the framework checks)
    /// run on `item`: changes the state and `list`, which the framework then applies. Returns
    /// UIKit's `completion` value: `false` leaves both exactly as they were. Throwing does
    /// too, answered as ``WebList/perform(_:on:)``'s errors are.
    mutating func performSwipeAction(_ identifier: String, on item: ItemID, list: inout Snapshot<SectionID, ItemID>) throws -> Bool
}

extension SwipeActionsList {
    public func leadingSwipeActions(for item: ItemID) -> SwipeActionsConfiguration? { nil }
    public func trailingSwipeActions(for item: ItemID) -> SwipeActionsConfiguration? { nil }

    /// The action `identifier` among those `item` offers on either edge, and its edge.
    public func offeredSwipeAction(_ identifier: String, for item: ItemID) -> (action: ContextualAction, edge: SwipeEdge)? {
        if let action = leadingSwipeActions(for: item)?.actions.first(where: { $0.identifier == identifier }) { return (action, .leading) }
        if let action = trailingSwipeActions(for: item)?.actions.first(where: { $0.identifier == identifier }) { return (action, .trailing) }
        return nil
    }
}

/// A row's edge a swipe starts from.
public enum SwipeEdge: String, Sendable, Equatable, Encodable {
    case leading, trailing
}
