import DiffableDataSources

/// A list whose items people delete one at a time (the delete accessory's confirmation, a
/// script's `…/delete-item`): UITableView's `tableView(_:canEditRowAt:)` and
/// `tableView(_:commit:forRowAt:)` with `.delete`. The framework asks ``canDelete(_:)``, runs
/// ``delete(_:from:)`` on the list's snapshot, and applies the result animated; a refusal
/// (`false`, or an error thrown) changes nothing and is answered 422 `deletion_not_allowed`.
///
/// ```swift
/// extension Contacts: DeletableList {
///     func canDelete(_ item: String) -> Bool { item != me }
///     mutating func delete(_ item: String, from list: inout Snapshot<String, String>) throws {
///         try list.deleteItems([item])
///         deleted += 1
///     }
/// }
/// ```
public protocol DeletableList: WebList {
    /// `canEditRowAt`: whether `item` may be deleted. Default: every item.
    func canDelete(_ item: ItemID) -> Bool

    /// `commit(.delete, forRowAt:)`: deletes `item` from `list` (and from the list's own
    /// state). Default: deletes it from the snapshot.
    mutating func delete(_ item: ItemID, from list: inout Snapshot<SectionID, ItemID>) throws
}

extension DeletableList {
    public func canDelete(_ item: ItemID) -> Bool { true }
    public mutating func delete(_ item: ItemID, from list: inout Snapshot<SectionID, ItemID>) throws {
        try list.deleteItems([item])
    }
}
