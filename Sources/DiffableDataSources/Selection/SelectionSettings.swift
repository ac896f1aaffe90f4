/// What a list lets its user select, and whether it is in editing mode: UICollectionView's
/// selection properties, as one value.
///
/// ```swift
/// var settings = SelectionSettings()                  // single selection, not editing
/// settings.allowsMultipleSelectionDuringEditing = true
/// settings.isEditing = true
/// settings.allowsSelectionNow                         // true
/// settings.allowsMultipleSelectionNow                 // true
/// ```
///
/// The defaults are UIKit's. Which pair of properties applies depends on ``isEditing``: out of
/// editing mode ``allowsMultipleSelection``, in it ``allowsSelectionDuringEditing`` and
/// ``allowsMultipleSelectionDuringEditing``. ``allowsSelection`` applies in both, as UITableView's
/// documentation of `allowsSelectionDuringEditing` puts it: "If you want to restrict selection of
/// cells regardless of mode, use `allowsSelection`."
///
/// Change the settings of an ``ItemSelection`` through ``ItemSelection/setSettings(_:)`` or
/// ``ItemSelection/setEditing(_:)``, which trim the selection to what the new settings allow.
public struct SelectionSettings: Codable, Hashable, Sendable {
    /// Whether the user can select items at all (UIKit's default: `true`).
    public var allowsSelection: Bool
    /// Whether a tap adds to the selection (and a second tap removes) rather than replacing it,
    /// out of editing mode (UIKit's default: `false`).
    public var allowsMultipleSelection: Bool
    /// Whether the user can select items in editing mode (UIKit's default: `false`).
    public var allowsSelectionDuringEditing: Bool
    /// Whether the user can select several items in editing mode (UIKit's default: `false`).
    /// It allows selection in editing mode by itself, as UITableView's check-mark editing does.
    public var allowsMultipleSelectionDuringEditing: Bool
    /// Whether the list is in editing mode (UIKit's `isEditing`, default `false`).
    public var isEditing: Bool
    /// Whether moving the keyboard focus onto an item selects it (UIKit's `selectionFollowsFocus`,
    /// default `false`): the WAI-ARIA pattern's "selection follows focus", for single selection
    /// only (see ``selectionFollowsFocusNow``). A focus-driven selection is a person's (the
    /// delegate's `shouldSelect` and `didSelect` run) but no primary action: that stays with a
    /// tap, a click or Return, which is how UIKit tells the two apart.
    public var selectionFollowsFocus: Bool

    /// Settings with UIKit's defaults unless given: single selection, not editing.
    /// - Complexity: O(1).
    public init(allowsSelection: Bool = true, allowsMultipleSelection: Bool = false,
                allowsSelectionDuringEditing: Bool = false, allowsMultipleSelectionDuringEditing: Bool = false,
                isEditing: Bool = false, selectionFollowsFocus: Bool = false) {
        self.allowsSelection = allowsSelection
        self.allowsMultipleSelection = allowsMultipleSelection
        self.allowsSelectionDuringEditing = allowsSelectionDuringEditing
        self.allowsMultipleSelectionDuringEditing = allowsMultipleSelectionDuringEditing
        self.isEditing = isEditing
        self.selectionFollowsFocus = selectionFollowsFocus
    }

    /// Decodes settings; a missing property takes UIKit's default, so `{"allowsMultipleSelection": true}`
    /// is a whole value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func flag(_ key: CodingKeys, _ defaultValue: Bool) throws -> Bool {
            try container.decodeIfPresent(Bool.self, forKey: key) ?? defaultValue
        }
        self.init(allowsSelection: try flag(.allowsSelection, true),
                  allowsMultipleSelection: try flag(.allowsMultipleSelection, false),
                  allowsSelectionDuringEditing: try flag(.allowsSelectionDuringEditing, false),
                  allowsMultipleSelectionDuringEditing: try flag(.allowsMultipleSelectionDuringEditing, false),
                  isEditing: try flag(.isEditing, false),
                  selectionFollowsFocus: try flag(.selectionFollowsFocus, false))
    }

    /// Whether a tap can select an item now, in the current mode. When it is `false` nothing is
    /// selected. - Complexity: O(1).
    public var allowsSelectionNow: Bool {
        allowsSelection && (!isEditing || allowsSelectionDuringEditing || allowsMultipleSelectionDuringEditing)
    }

    /// Whether multiple selection is in effect now, in the current mode: a tap toggles an item,
    /// and ``ItemSelection/selectAll(in:)`` and ``ItemSelection/extend(to:in:shouldSelect:shouldDeselect:)``
    /// select ranges. When it is `false` at most one item is selected. - Complexity: O(1).
    public var allowsMultipleSelectionNow: Bool {
        allowsSelection && (isEditing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection)
    }

    /// Whether moving the focus selects now: ``selectionFollowsFocus`` where a tap may select
    /// and at most one item is selected (in multiple selection the focus moves alone, as the
    /// Authoring Practices' multi-select listbox has it). - Complexity: O(1).
    public var selectionFollowsFocusNow: Bool {
        selectionFollowsFocus && allowsSelectionNow && !allowsMultipleSelectionNow
    }
}
