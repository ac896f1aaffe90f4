import CompositionalLayout

/// What a cell on the page is: an item of the snapshot, or a supplementary view the layout
/// adds (a section's header or footer, or another element kind such as a badge), or a decoration
/// drawn behind a section (a background). On the wire and in the page it is a string: `item`,
/// `header`, `footer`, `decoration`, or the element kind.
public enum CellKind: Sendable, Hashable, Codable, CustomStringConvertible {
    case item
    case header
    case footer
    /// Another element kind of the layout's boundary supplementary items.
    case supplementary(String)
    /// A decoration item of this element kind (a section background): no content, drawn behind
    /// the section's cells. A demo is never asked for its HTML; CSS styles it.
    case decoration(String)

    /// The kind of a layout's supplementary element (`LayoutElementKind.sectionHeader` is `header`).
    public init(elementKind: String) {
        switch elementKind {
        case LayoutElementKind.sectionHeader: self = .header
        case LayoutElementKind.sectionFooter: self = .footer
        default: self = .supplementary(elementKind)
        }
    }

    /// The name on the wire, which is also the layout's element kind for a supplementary view.
    public var name: String {
        switch self {
        case .item: "item"
        case .header: LayoutElementKind.sectionHeader
        case .footer: LayoutElementKind.sectionFooter
        case .supplementary(let kind): kind
        case .decoration: "decoration"
        }
    }

    /// A decoration's element kind (`nil` for every other kind).
    public var decorationKind: String? {
        if case .decoration(let kind) = self { kind } else { nil }
    }

    public var description: String { name }

    /// A decoration decodes with an empty element kind: its name on the wire is `decoration`
    /// alone (the element kind travels beside it, in the cell's `decoration`).
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        switch name {
        case "item": self = .item
        case "decoration": self = .decoration("")
        default: self = CellKind(elementKind: name)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
