import DiffableDataSources

/// A list with a section that is an outline (Apple's sidebar: rows that expand and collapse,
/// their children loaded on first expand): the section's `SectionSnapshot` lives in the data
/// source, as in UIKit, and its handlers (`SectionSnapshotHandlers`) are the list's methods,
/// run on its state.
///
/// The list's own actions say what they ask of the outline (``disclosure(for:)``); the
/// framework runs them through the data source's `expand` and `collapse`, which ask the
/// handlers, then reconfigures the parent's row (its disclosure is part of its cell).
public protocol ExpandableOutline: WebList where SectionID == String, ItemID == String {
    /// The section that is the outline.
    static var outlineSection: String { get }

    /// The outline the section shows when the list is made: the top level for a new session;
    /// for a restored state, the children of the parents it had expanded too.
    func initialOutline() -> SectionSnapshot<String>

    /// What `action` asks of the outline, or `nil` for an action ``WebList/perform(_:on:)`` runs.
    func disclosure(for action: Action) -> OutlineDisclosure?

    /// `shouldExpandItem`. Default: every item.
    mutating func shouldExpand(_ item: String) -> Bool
    /// `willExpandItem`. Default: nothing.
    mutating func willExpand(_ item: String)
    /// `shouldCollapseItem`. Default: every item.
    mutating func shouldCollapse(_ item: String) -> Bool
    /// `willCollapseItem`. Default: nothing.
    mutating func willCollapse(_ item: String)
    /// `snapshotForExpandingParent`: the subtree to show under `parent` (its children, loaded
    /// now), given what it has. Default: what it has.
    mutating func snapshotForExpandingParent(_ parent: String, current: SectionSnapshot<String>) -> SectionSnapshot<String>
    /// The outline after an expand or a collapse (the one truth of what is expanded). Default: nothing.
    mutating func outlineDidChange(_ outline: SectionSnapshot<String>)

    /// An item as an error names it ("“Mount Everest” (m0001)"). Default: its identifier.
    func describe(_ item: String) -> String
    /// Whether `item` can have children: expanding or collapsing one that cannot, and is
    /// refused, is a 422 `not_expandable`. Default: every item can.
    func isExpandable(_ item: String) -> Bool
    /// Why `item` is not in the outline, for the 422 `not_in_outline` ("expand “8,000 m” first").
    /// Default: the section was replaced.
    func notInOutlineReason(_ item: String) -> String
}

/// What an action asks of an ``ExpandableOutline``.
public enum OutlineDisclosure: Sendable, Equatable {
    case expand(String)
    case collapse(String)
    /// Expand a collapsed item, collapse an expanded one.
    case toggle(String)
}

extension ExpandableOutline {
    public mutating func shouldExpand(_ item: String) -> Bool { true }
    public mutating func willExpand(_ item: String) {}
    public mutating func shouldCollapse(_ item: String) -> Bool { true }
    public mutating func willCollapse(_ item: String) {}
    public mutating func snapshotForExpandingParent(_ parent: String, current: SectionSnapshot<String>) -> SectionSnapshot<String> { current }
    public mutating func outlineDidChange(_ outline: SectionSnapshot<String>) {}
    public func describe(_ item: String) -> String { item }
    public func isExpandable(_ item: String) -> Bool { true }
    public func notInOutlineReason(_ item: String) -> String { "the section was replaced through the snapshot API" }
}
