/// A list whose cells depend on the item alone, the same in every session (a catalog's
/// entries): the framework makes each item's cell once for every session, and shares what a
/// transition renders between the sessions making it. A list whose cells show per-session
/// state (a like, a loaded image) must not conform.
public protocol SharedCells: WebList {}
