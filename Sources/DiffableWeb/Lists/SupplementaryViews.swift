import DiffableDataSources

/// A list whose layout has supplementary views (a section's header or footer, a badge) that
/// show something: UIKit's `supplementaryViewProvider`.
///
/// ```swift
/// func supplementary(_ kind: CellKind, in section: String, of list: Snapshot<String, String>) -> Header? {
///     kind == .header ? Header(template: "cells/header", title: "Numbers", detail: "\(list.numberOfItems) items") : nil
/// }
/// ```
public protocol SupplementaryViews: WebList {
    associatedtype Supplementary: TemplatedCell

    /// What the view of `kind` in `section` shows, or `nil` for none.
    func supplementary(_ kind: CellKind, in section: SectionID, of list: Snapshot<SectionID, ItemID>) -> Supplementary?
}
