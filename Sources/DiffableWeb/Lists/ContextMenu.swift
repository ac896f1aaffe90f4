/// What a context menu shows: UIKit's `UIContextMenuConfiguration`'s `UIMenu`, flat (a title
/// and its actions).
///
/// ```swift
/// ContextMenu(title: "2 emoji", children: [
///     MenuAction(title: "Star", identifier: "star", image: "star"),
///     MenuAction(title: "Hide", identifier: "hide", image: "eye.slash", attributes: .destructive),
/// ])
/// ```
public struct ContextMenu: Sendable, Equatable, Encodable {
    /// The menu's title (`""` for none).
    public var title: String
    public var children: [MenuAction]

    public init(title: String = "", children: [MenuAction]) {
        self.title = title
        self.children = children
    }
}

/// One item of a ``ContextMenu``: UIKit's `UIAction`, its handler the list's
/// ``ContextMenuList/performMenuAction(_:on:list:)`` (called with ``identifier``).
public struct MenuAction: Sendable, Equatable, Encodable {
    /// UIKit's `UIMenuElement.Attributes`.
    public struct Attributes: OptionSet, Sendable, Equatable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Shown in red: it deletes or hides.
        public static let destructive = Attributes(rawValue: 1)
        /// Shown dimmed; choosing it is refused (422).
        public static let disabled = Attributes(rawValue: 2)
    }

    public var title: String
    /// What the handler and the API name the action by (`"star"`): unique within its menu.
    public var identifier: String
    /// A symbol's name (`"star"`), or `nil`.
    public var image: String?
    public var attributes: Attributes
    /// Text the page puts on the clipboard when the action is chosen (a "Copy" action: the
    /// handler runs on the server, `UIPasteboard` is the person's), or `nil`.
    public var pasteboardText: String?

    public init(title: String, identifier: String, image: String? = nil, attributes: Attributes = [], pasteboardText: String? = nil) {
        self.title = title
        self.identifier = identifier
        self.image = image
        self.attributes = attributes
        self.pasteboardText = pasteboardText
    }

    enum CodingKeys: String, CodingKey { case title, identifier, image, destructive, disabled, pasteboardText }

    /// `{"title", "identifier", "image"?, "pasteboardText"?, "destructive"?, "disabled"?}`: an attribute only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(identifier, forKey: .identifier)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(pasteboardText, forKey: .pasteboardText)
        if attributes.contains(.destructive) { try container.encode(true, forKey: .destructive) }
        if attributes.contains(.disabled) { try container.encode(true, forKey: .disabled) }
    }
}
