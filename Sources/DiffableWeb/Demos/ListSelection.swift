import DiffableDataSources

/// A list's selection as the wire and the API show it (docs/protocol.md, "Selection"): the
/// selected items in the order they were selected, and what a tap may do now.
///
/// ```swift
/// ListSelection(items: ["n3"], editing: false, multiple: true, allowed: true)
/// // "selection":{"items":["n3"],"editing":false,"multiple":true}
/// ```
public struct ListSelection: Sendable, Equatable, Encodable {
    public var items: [String]
    /// Whether the list is in editing mode (UIKit's `isEditing`).
    public var editing: Bool
    /// Whether multiple selection is in effect now (`SelectionSettings.allowsMultipleSelectionNow`).
    public var multiple: Bool
    /// Whether a tap may select now (`SelectionSettings.allowsSelectionNow`); the wire carries
    /// it only when it is `false`.
    public var allowed: Bool
    /// Whether moving the focus selects now (`SelectionSettings.selectionFollowsFocusNow`): the
    /// page then sends a `focus` for each arrow key. The wire carries it only when it is `true`.
    public var followsFocus: Bool

    public init(items: [String], editing: Bool, multiple: Bool, allowed: Bool, followsFocus: Bool = false) {
        self.items = items
        self.editing = editing
        self.multiple = multiple
        self.allowed = allowed
        self.followsFocus = followsFocus
    }

    enum CodingKeys: String, CodingKey { case items, editing, multiple, allowed, followsFocus }

    /// As the wire writes it: `allowed` only when it is `false`, `followsFocus` only when `true`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(editing, forKey: .editing)
        try container.encode(multiple, forKey: .multiple)
        if !allowed { try container.encode(false, forKey: .allowed) }
        if followsFocus { try container.encode(true, forKey: .followsFocus) }
    }

    /// The wire form of a selection kept by the core.
    /// - Complexity: O(1) (the items are shared until changed).
    public init(_ selection: ItemSelection<String>) {
        self.init(items: selection.selectedItems, editing: selection.settings.isEditing,
                  multiple: selection.settings.allowsMultipleSelectionNow, allowed: selection.settings.allowsSelectionNow,
                  followsFocus: selection.settings.selectionFollowsFocusNow)
    }
}

/// What a request asks of a list's selection: a person's tap from the page, or a script's
/// change through the API (which, as UIKit's `selectItem(at:…)`, calls no `didSelect`).
public enum SelectionRequest: Sendable, Equatable {
    /// A person's click, tap, Space or Return on `item`; `extend`: Shift-click or Shift+arrow
    /// (a range from the anchor, in multiple selection).
    case tap(String, extend: Bool)
    /// A person's arrow key moved the focus onto `item`: where selection follows focus, a tap
    /// without the primary action (`ItemSelection.focus`); elsewhere nothing.
    case focus(String)
    /// A person's Ctrl/Cmd+A: every item, in multiple selection (AppKit's `selectAll`).
    case selectAll
    /// A script's: add these items (in single selection, at most one may end up selected).
    case select([String])
    /// A script's: deselect these items.
    case deselect([String])
    /// A script's: exactly these items.
    case replace([String])
    /// A no-JavaScript form's: of the items the form `shown`, exactly `checked` are selected;
    /// items it did not show keep their state.
    case form(checked: [String], shown: [String])
    /// A person's Edit or Done, or a script's `…/editing`: enters or leaves editing mode (UIKit's
    /// `setEditing(_:animated:)`), trimming the selection as UIKit does.
    case setEditing(Bool)

    /// The items the request names, each of which the list must contain.
    var namedItems: [String] {
        switch self {
        case .tap(let item, _), .focus(let item): [item]
        case .selectAll, .setEditing: []
        case .select(let items), .deselect(let items), .replace(let items): items
        case .form(let checked, let shown): checked + shown
        }
    }

    /// Whether a person asked (the list's `shouldSelect` and `didSelect` are due).
    var isUserInteraction: Bool {
        switch self {
        case .tap, .focus, .form: true
        case .selectAll, .select, .deselect, .replace, .setEditing: false
        }
    }
}
