/// A cell's template and the values it fills in.
///
/// Its hash is computed once, when it is made: the render cache looks contents up on every
/// cell an event carries, and hashing a dictionary of strings each time was measurable.
public struct CellContent: Sendable, Hashable {
    public let template: String
    public let values: [String: String]
    private let hash: Int

    public init(template: String, values: [String: String]) {
        self.template = template
        self.values = values
        var hasher = Hasher()
        hasher.combine(template)
        hasher.combine(values)
        hash = hasher.finalize()
    }

    public static func == (lhs: CellContent, rhs: CellContent) -> Bool {
        lhs.hash == rhs.hash && lhs.template == rhs.template && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
