import CompositionalLayout
import DiffableDataSources
import MicroHTTP

/// A list a person can open in the browser and a script can drive over HTTP.
///
/// A demo is the only demo-specific code in the web layer: where its data comes from,
/// how it is laid out, how a cell renders, and what its actions do. Everything else —
/// sessions, the changeset stream, layout diffs, pages, the client — is shared, so a new
/// demo is a new type conforming to `Demo` and a cell template.
///
/// One instance lives per session (it holds that session's state, e.g. the query), created
/// by ``DemoDescriptor/make``. Identifiers are strings on the wire, so both snapshots'
/// identifier types are `String`.
public protocol Demo: AnyObject, Sendable {
    /// The snapshot a new session starts with.
    func initialSnapshot() -> Snapshot<String, String>

    /// The layout, asked again whenever the viewport changes (so it can adapt columns).
    func layout() -> CompositionalLayout

    /// What a cell shows: a template under `templates/` and its values (HTML-escaped by the template).
    func cell(for item: String) -> CellContent?

    /// The data a script sees for an item (`GET …/snapshot`); `nil` when the demo has no such item.
    func data(for item: String) -> [String: String]?

    /// What a header or footer (or another supplementary view of the layout) shows, or `nil`
    /// for none.
    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent?

    /// Runs an action, usually by applying a new snapshot to `list`, the write's transaction
    /// (valid only while the action runs: keep nothing of it).
    /// - Throws: ``ActionError`` for unknown actions and bad parameters; nothing changes then.
    func perform(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError)

    /// Runs an action as ``perform(_:parameters:on:)`` does, and returns what its answer adds
    /// to `{"version": …}` (a reorder's transaction), or `nil`. By default it calls `perform`.
    func performReporting(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) -> ActionReport?

    /// A one-line summary of the list for screen readers and the page (`aria-live`): what a
    /// person cares about ("1,467 mountains", "5 items"), no developer counters.
    func status(of snapshot: Snapshot<String, String>) -> String

    /// The list's counters for people scripting it ("assets: 12 loaded, 0 loading…"): shown in
    /// the page's "Script this session" panel and the API's session description, sent as
    /// `"details"` in events. Default: none (an empty string).
    func details(of snapshot: Snapshot<String, String>) -> String

    /// The list's view state beyond its items (the current query, layout, whether a publisher
    /// is paused): the page template's values, and the `"state"` of every `snapshot` and
    /// `changeset` event, so that a page's controls show a change a script made. The page also
    /// gets `<key>_<value>` as `true` for each (`layout_grid`), for a segmented control's
    /// `aria-pressed`: an empty string is not false in a template.
    func pageValues() -> [String: String]

    /// What a page URL's query asks to see (the no-JavaScript search form submits by GET),
    /// computed aside: a GET writes nothing. `nil` when the page shows the list as it is. The
    /// page marks a preview, and the client makes it real with its own POST.
    func pagePreview(query: [String: String]) -> PagePreview?

    /// Called once, when the session's list is made (after its initial snapshot is applied),
    /// with the handle for writes no request asks for (loads that finish, timers).
    func attach(_ list: ListHandle)

    /// Whether ``windowDidChange(_:)`` should be called (it costs a lookup per cell in the window).
    var observesWindows: Bool { get }

    /// A stream's window opened, moved, or followed a change (called outside the writer: write
    /// through the ``ListHandle``, never wait for it here). For prefetching and pagination.
    func windowDidChange(_ window: WindowItems)

    /// The number of open streams changed (a publisher that runs only while someone watches).
    func streamCountDidChange(_ count: Int)

    /// What the demo keeps besides its snapshot, for a server restart (a query, a counter, a
    /// layout): saved with the snapshot after every change. Default: nothing.
    func persistentState() -> [String: String]

    /// Takes back a saved state (before the list's saved snapshot is restored), and the state
    /// from before a write whose apply the list limits refused (100,000 items, 1,000 sections),
    /// so that the refused write leaves nothing behind (a batch counted, numbers reserved).
    /// Default: nothing.
    func restore(state: [String: String])

    /// Whether the list is saved at all (false for state the store cannot hold yet).
    var persistsList: Bool { get }

    /// Whether the list is, right now, a function of the demo's state (the Mountains list is
    /// its query): it is then saved as that state (``persistentState()``), not as identifiers
    /// and changes, and a restart computes it again (``derivedSnapshot()``). Default: `false`.
    var derivesList: Bool { get }

    /// The list computed from the demo's state, when ``derivesList``; `nil` otherwise.
    func derivedSnapshot() -> Snapshot<String, String>?

    /// A script changed the list's items directly (`PUT …/snapshot`, operations): a list
    /// derived from the demo's state is now an ordinary list, and the demo's state says so
    /// (the Mountains status no longer quotes a query). Called in the write, after the change.
    func didEditList()

    /// Whether ``cell(for:)`` depends on the item alone, the same in every session (a catalog's
    /// items): then what a shared transition renders for a window is shared by every session
    /// making it (see `TransitionCache`). `false` by default: a demo whose cells show
    /// per-session state (a like, a loaded image) must not share them.
    var sharesCellContent: Bool { get }

    /// The list's selection as the wire shows it, or `nil` for a list without one (the default).
    var selection: ListSelection? { get }

    /// Changes the selection as `request` asks, inside a write (`list` is its transaction).
    /// - Returns: whether anything a page or a script sees changed (the write then applies the
    ///   list as it is, so that the change is an event with a version).
    /// - Throws: `SelectionError` (an unknown item, a second item in single selection) or
    ///   ``ActionError``; a refused request changes nothing.
    func select(_ request: SelectionRequest, on list: ListTransaction) throws -> Bool

    /// Brings the selection up to date after a write's applies (`updates`, in order), or, with
    /// none, with `snapshot` alone (a list made or restored).
    func reconcileSelection(with updates: [DataSourceUpdate<String, String>], snapshot: Snapshot<String, String>)
}

extension Demo {
    /// By default, what the cell shows.
    public func data(for item: String) -> [String: String]? { cell(for: item)?.values }

    public func performReporting(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) -> ActionReport? {
        try perform(action, parameters: parameters, on: list)
        return nil
    }

    /// By default a list has no counters.
    public func details(of snapshot: Snapshot<String, String>) -> String { "" }

    /// By default a page shows the list as it is.
    public func pagePreview(query: [String: String]) -> PagePreview? { nil }

    /// By default a demo changes its list only when asked.
    public func attach(_ list: ListHandle) {}
    public var observesWindows: Bool { false }
    public func windowDidChange(_ window: WindowItems) {}
    public func streamCountDidChange(_ count: Int) {}
    public func persistentState() -> [String: String] { [:] }
    public func restore(state: [String: String]) {}
    public var persistsList: Bool { true }
    public var derivesList: Bool { false }
    public func derivedSnapshot() -> Snapshot<String, String>? { nil }
    public func didEditList() {}
    public var sharesCellContent: Bool { false }

    /// By default a list has no selection.
    public var selection: ListSelection? { nil }
    public func select(_ request: SelectionRequest, on list: ListTransaction) throws -> Bool {
        throw ActionError.unprocessable(code: "not_selectable", message: "This list has no selection")
    }
    public func reconcileSelection(with updates: [DataSourceUpdate<String, String>], snapshot: Snapshot<String, String>) {}
}
