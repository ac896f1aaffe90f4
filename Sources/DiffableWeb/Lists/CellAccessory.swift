/// A view at a cell's leading or trailing edge (UIKit's `UICellAccessory`), for a list that
/// declares them (``AccessorizedList``). Each shows always, only in editing mode, or only out of
/// it (``DisplayedState``), with UIKit's default for its kind.
///
/// ```swift
/// func accessories(for item: String) -> [CellAccessory] {
///     [.delete(), .multiselect(), .reorder(), .disclosureIndicator()]
/// }
/// // out of editing mode: the disclosure indicator; in it: the delete and multiselect circles,
/// // the reorder handle and the indicator
/// ```
///
/// The renderer puts them where UIKit's list cells do: delete and multiselect before the
/// content; checkmark, label, detail, custom views, the disclosure indicator, the outline
/// disclosure and reorder after it. The page shows and hides them by the list's editing state
/// with no cell rendered again (docs/protocol.md, "Editing").
public struct CellAccessory: Sendable, Hashable {
    /// When an accessory shows (UIKit's `UICellAccessory.DisplayedState`).
    public enum DisplayedState: String, Sendable, Hashable, CaseIterable {
        /// In and out of editing mode.
        case always
        /// Only in editing mode.
        case whenEditing
        /// Only out of editing mode.
        case whenNotEditing

        /// Whether an accessory with this state shows while the list's `isEditing` is `editing`.
        /// - Complexity: O(1).
        public func isVisible(editing: Bool) -> Bool {
            switch self {
            case .always: true
            case .whenEditing: editing
            case .whenNotEditing: !editing
            }
        }
    }

    /// What the accessory is.
    public enum Kind: Sendable, Hashable {
        /// A chevron pointing to the trailing edge: tapping the cell shows more.
        case disclosureIndicator
        /// A check mark.
        case checkmark
        /// The red circle that reveals a Delete button (``DeletableList``).
        case delete
        /// The handle people drag the row by (``Reorderable``).
        case reorder
        /// The circle that shows whether the item is selected (``SelectableList``, multiple
        /// selection during editing).
        case multiselect
        /// The chevron that expands and collapses an outline's item.
        case outlineDisclosure
        /// A short text (a count, a state).
        case label(String)
        /// The info button.
        case detail
        /// A view of the list's own: a template (`cells/…`) rendered with `values`, placed at
        /// the trailing edge unless `leading`.
        case customView(template: String, values: [String: String], leading: Bool)

        /// The name the markup and the CSS know it by (`data-accessory`).
        public var name: String {
            switch self {
            case .disclosureIndicator: "disclosureIndicator"
            case .checkmark: "checkmark"
            case .delete: "delete"
            case .reorder: "reorder"
            case .multiselect: "multiselect"
            case .outlineDisclosure: "outlineDisclosure"
            case .label: "label"
            case .detail: "detail"
            case .customView: "customView"
            }
        }

        /// Whether UIKit puts it before the cell's content: delete and multiselect (and a custom
        /// view placed there).
        public var isLeading: Bool {
            switch self {
            case .delete, .multiselect: true
            case .customView(_, _, let leading): leading
            default: false
            }
        }
    }

    public var kind: Kind
    public var displayed: DisplayedState

    public init(_ kind: Kind, displayed: DisplayedState) {
        self.kind = kind
        self.displayed = displayed
    }

    /// `disclosureIndicator(displayed:)`: UIKit's default `.always`.
    public static func disclosureIndicator(displayed: DisplayedState = .always) -> CellAccessory { .init(.disclosureIndicator, displayed: displayed) }
    /// `checkmark(displayed:)`: UIKit's default `.always`.
    public static func checkmark(displayed: DisplayedState = .always) -> CellAccessory { .init(.checkmark, displayed: displayed) }
    /// `delete(displayed:)`: UIKit's default `.whenEditing`.
    public static func delete(displayed: DisplayedState = .whenEditing) -> CellAccessory { .init(.delete, displayed: displayed) }
    /// `reorder(displayed:)`: UIKit's default `.whenEditing`.
    public static func reorder(displayed: DisplayedState = .whenEditing) -> CellAccessory { .init(.reorder, displayed: displayed) }
    /// `multiselect(displayed:)`: UIKit's default `.whenEditing`.
    public static func multiselect(displayed: DisplayedState = .whenEditing) -> CellAccessory { .init(.multiselect, displayed: displayed) }
    /// `outlineDisclosure(displayed:)`: UIKit's default `.always`.
    public static func outlineDisclosure(displayed: DisplayedState = .always) -> CellAccessory { .init(.outlineDisclosure, displayed: displayed) }
    /// `label(text:displayed:)`: UIKit's default `.always`.
    public static func label(_ text: String, displayed: DisplayedState = .always) -> CellAccessory { .init(.label(text), displayed: displayed) }
    /// `detail(displayed:)`: UIKit's default `.always`.
    public static func detail(displayed: DisplayedState = .always) -> CellAccessory { .init(.detail, displayed: displayed) }
    /// `customView(configuration:)`: a template of the list's own with its values; UIKit's
    /// placement defaults to the trailing edge, `.always`.
    public static func customView(template: String, values: [String: String] = [:], leading: Bool = false,
                                  displayed: DisplayedState = .always) -> CellAccessory {
        .init(.customView(template: template, values: values, leading: leading), displayed: displayed)
    }

    /// Whether it shows while the list's `isEditing` is `editing`. - Complexity: O(1).
    public func isVisible(editing: Bool) -> Bool { displayed.isVisible(editing: editing) }
}
