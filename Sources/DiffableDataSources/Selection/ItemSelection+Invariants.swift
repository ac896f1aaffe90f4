extension ItemSelection {
    /// Checks the selection against the list it selects in; tests call it after every operation.
    /// Returns a description of the first broken invariant, or `nil` when all hold.
    /// - Complexity: expected O(n) for n selected items.
    public func _brokenInvariant<SectionID>(in snapshot: Snapshot<SectionID, ItemIdentifier>) -> String? {
        if !settings.allowsSelectionNow && !selected.isEmpty { return "\(selected.count) items selected where selection is not allowed" }
        if !settings.allowsMultipleSelectionNow && selected.count > 1 { return "\(selected.count) items selected in single selection" }
        for item in selected where !snapshot.contains(item: item) { return "selected item \(item) is not in the list" }
        if let anchor, !snapshot.contains(item: anchor) { return "anchor \(anchor) is not in the list" }
        if let extent, !snapshot.contains(item: extent) { return "extent \(extent) is not in the list" }
        if extent != nil && anchor == nil { return "an extent without an anchor" }
        return nil
    }
}
