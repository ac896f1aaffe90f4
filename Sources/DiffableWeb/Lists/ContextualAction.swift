/// One button a swipe reveals under a row: UIKit's `UIContextualAction`, its handler the
/// list's ``SwipeActionsList/performSwipeAction(_:on:list:)`` (called with ``identifier``).
///
/// ```swift
/// ContextualAction(style: .destructive, title: "Hide", identifier: "hide", image: "eye.slash")
/// ```
public struct ContextualAction: Sendable, Equatable, Encodable {
    /// UIKit's `UIContextualAction.Style`.
    public enum Style: String, Sendable, Equatable, Encodable {
        /// A neutral action (gray unless given a color).
        case normal
        /// An action that deletes or hides the row (red unless given a color); a full swipe on
        /// it slides the row out.
        case destructive
    }

    /// What the handler and the API name the action by (`"star"`): unique among an item's
    /// actions on both edges.
    public var identifier: String
    public var style: Style
    /// The button's title (also its accessible name).
    public var title: String
    /// A symbol's name shown above the title (`"star.fill"`), or `nil` for the title alone.
    public var image: String?
    /// The button's color, by name (`"yellow"`, `"blue"`, `"orange"`…, the page's CSS gives
    /// each a light and a dark shade), or `nil` for the style's (gray, or red for destructive).
    public var backgroundColor: String?

    public init(style: Style, title: String, identifier: String, image: String? = nil, backgroundColor: String? = nil) {
        self.style = style
        self.title = title
        self.identifier = identifier
        self.image = image
        self.backgroundColor = backgroundColor
    }
}

/// The actions one edge of a row offers: UIKit's `UISwipeActionsConfiguration`.
///
/// `actions[0]` is the outermost: the leftmost of the leading edge's, the rightmost of the
/// trailing edge's, and the one a full swipe performs.
public struct SwipeActionsConfiguration: Sendable, Equatable, Encodable {
    public var actions: [ContextualAction]
    /// Whether swiping the row all the way across performs `actions[0]` (UIKit's default: yes).
    public var performsFirstActionWithFullSwipe: Bool

    public init(actions: [ContextualAction], performsFirstActionWithFullSwipe: Bool = true) {
        self.actions = actions
        self.performsFirstActionWithFullSwipe = performsFirstActionWithFullSwipe
    }

    /// The action a full swipe performs: the outermost, if full swipes are on.
    public var fullSwipeAction: ContextualAction? {
        performsFirstActionWithFullSwipe ? actions.first : nil
    }
}
