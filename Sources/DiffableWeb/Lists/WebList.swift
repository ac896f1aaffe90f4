import CompositionalLayout
import DiffableDataSources

/// A live list, in one type: its state, what it starts with, how its cells look, and what its
/// actions do. The framework serves it: one per browser session, saved across restarts,
/// streamed to every tab as changesets, driven by people (buttons, forms) and by scripts
/// (`POST /api/sessions/{id}/demos/{name}/actions/{action}`).
///
/// The type's stored properties are the list's state (beside its items): the framework owns
/// the value, saves it (`Codable`) and changes it only through ``perform(_:on:)``, one write at
/// a time, so list code needs no lock. A write that throws, or that the list's limits refuse,
/// leaves both the state and the items as they were.
///
/// ```swift
/// struct Groceries: WebList {
///     static let title = "Groceries"
///     var aisles = ["Bread": 1, "Milk": 4]                       // the state
///     enum Action: WebListAction { case add(item: String), sortByAisle }
///     struct Cell: Encodable { let name: String; let aisle: Int }  // templates/cells/groceries.mustache
///
///     func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot(["list": ["Bread", "Milk"]]) }
///     func cell(for item: String) -> Cell? { Cell(name: item, aisle: aisles[item] ?? 0) }
///     mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
///         switch action {
///         case .add(let item): try list.appendItems([item]); aisles[item] = aisles[item] ?? 1
///         case .sortByAisle: try list.sortItems { (aisles[$0] ?? 0, $0) < (aisles[$1] ?? 0, $1) }
///         }
///     }
/// }
/// ```
/// Its actions are `Action`'s cases and their parameters the cases' associated values
/// (``ActionSchema``): the API, the page's forms and the OpenAPI document come from them, and
/// a request's parameters are checked against them (a missing or mistyped one is a 400 that
/// names it) before `perform` sees a typed action.
public protocol WebList: Codable, Sendable {
    associatedtype SectionID: Hashable & Sendable & LosslessStringConvertible = String
    associatedtype ItemID: Hashable & Sendable & LosslessStringConvertible = String
    associatedtype Action: WebListAction
    associatedtype Cell: Encodable

    /// The list's URL name (`/demos/<name>`): lowercase letters, digits and `-`. Default: the
    /// type's name in lowercase.
    static var name: String { get }
    /// The page's title.
    static var title: String { get }
    /// One sentence for the index page. Default: none.
    static var summary: String { get }
    /// The cells' Mustache template, under a templates directory. Default: `cells/<name>`.
    static var cellTemplate: String { get }
    /// Every template the list's cells and supplementary views use, checked when the app
    /// starts. Default: ``cellTemplate``; a list whose cells choose their template
    /// (``TemplatedCell``) names them all.
    static var cellTemplates: [String] { get }
    /// The page's template. Default: `demos/list`, the list with a button or a form for every action.
    static var pageTemplate: String { get }
    /// Where the list's own templates live when they ship with it (a module's resources), read
    /// after the app's so that an app can override them. Default: `nil`, the app's directories.
    static var templatesDirectory: String? { get }

    /// The state a new session starts with.
    init()

    /// The items a new session starts with (a `SnapshotError` here is a bug of the list: a new
    /// session of it is answered 500, naming the duplicate).
    func initialSnapshot() throws -> Snapshot<SectionID, ItemID>

    /// The layout (asked again when the viewport changes). Default: an inset-grouped list.
    func layout() -> CompositionalLayout

    /// What an item's cell shows: the template's values (HTML-escaped by the template), or
    /// `nil` for no such item.
    func cell(for item: ItemID) -> Cell?

    /// Runs an action: changes the state and `list`, which the framework then applies,
    /// animating the difference. Throwing leaves both as they were: a `SnapshotError` (a
    /// duplicate or unknown identifier) is answered 422 naming it, an ``ActionError`` as
    /// itself, anything else 422 `action_failed` with its description.
    mutating func perform(_ action: Action, on list: inout Snapshot<SectionID, ItemID>) throws

    /// A one-line summary for screen readers and the page ("4 to buy"). Default: the count.
    func status(of list: Snapshot<SectionID, ItemID>) -> String

    /// The list's counters for people scripting it ("12 reordered by hand"), shown in the
    /// page's "Script this session" panel and the API's session description. Default: none.
    func details(of list: Snapshot<SectionID, ItemID>) -> String
}

/// A ``WebList``'s actions: an enum whose cases are the actions and whose associated values,
/// named, are their parameters (`String`, `Int`, `Double`, `Bool`, `[String]`, a
/// `CaseIterable` enum of strings, a ``ItemPosition``, or an optional of one of these: optional
/// is not required).
public protocol WebListAction: Decodable, Sendable {
    /// What the actions and their parameters do, for the API's description, the OpenAPI
    /// document and the page's forms: keyed by the action's name (`"append"`) and by the
    /// action's name and the parameter's (`"append.count"`). Default: none.
    static var descriptions: [String: String] { get }
}

extension WebListAction {
    public static var descriptions: [String: String] { [:] }
}

extension WebList {
    public static var name: String { String(describing: Self.self).lowercased() }
    public static var summary: String { "" }
    public static var cellTemplate: String { "cells/\(name)" }
    public static var cellTemplates: [String] { [cellTemplate] }
    public static var pageTemplate: String { "demos/list" }
    public static var templatesDirectory: String? { nil }
    public func details(of list: Snapshot<SectionID, ItemID>) -> String { "" }

    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .insetGrouped), layoutEnvironment: environment)
        }
    }

    public func status(of list: Snapshot<SectionID, ItemID>) -> String {
        list.numberOfItems == 1 ? "1 item" : "\(list.numberOfItems) items"
    }
}
