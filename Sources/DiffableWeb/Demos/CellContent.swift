/// A cell's template and the values it fills in, and the accessories around it
/// (``AccessorizedList``).
///
/// Its hash is computed once, when it is made: the render cache looks contents up on every
/// cell an event carries, and hashing a dictionary of strings each time was measurable.
public struct CellContent: Sendable, Hashable {
    public let template: String
    public let values: [String: String]
    /// The cell's accessories (UIKit's `cell.accessories`), rendered around its content.
    public let accessories: [CellAccessory]
    /// The name the accessories call the item by ("Delete Bob"), when it has accessories.
    public let accessibilityName: String?
    private let hash: Int

    public init(template: String, values: [String: String], accessories: [CellAccessory] = [], accessibilityName: String? = nil) {
        self.template = template
        self.values = values
        self.accessories = accessories
        self.accessibilityName = accessibilityName
        var hasher = Hasher()
        hasher.combine(template)
        hasher.combine(values)
        hasher.combine(accessories)
        hasher.combine(accessibilityName)
        hash = hasher.finalize()
    }

    /// This content with `accessories` around it. - Complexity: O(values).
    public func accessorized(_ accessories: [CellAccessory], name: String?) -> CellContent {
        CellContent(template: template, values: values, accessories: accessories, accessibilityName: name)
    }

    public static func == (lhs: CellContent, rhs: CellContent) -> Bool {
        lhs.hash == rhs.hash && lhs.template == rhs.template && lhs.values == rhs.values
            && lhs.accessories == rhs.accessories && lhs.accessibilityName == rhs.accessibilityName
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
