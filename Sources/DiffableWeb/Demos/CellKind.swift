import CompositionalLayout

/// What a cell on the page is: an item of the snapshot, or a supplementary view the layout
/// adds (a section's header or footer, or another element kind such as a badge). On the wire
/// and in the page it is a string: `item`, `header`, `footer`, or the element kind.
public enum CellKind: Sendable, Hashable, Codable, CustomStringConvertible {
    case item
    case header
    case footer
    /// Another element kind of the layout's boundary supplementary items.
    case supplementary(String)

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
        }
    }

    public var description: String { name }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = name == "item" ? .item : CellKind(elementKind: name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
