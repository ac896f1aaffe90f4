/// A position in the list, counted from 0 as the API counts: an action parameter of this type
/// is an integer to a script, and a page's form shows it counting from 1, as people count.
///
/// ```swift
/// enum Action: WebListAction { case move(from: ItemPosition, to: ItemPosition) }
/// ```
public struct ItemPosition: Sendable, Hashable, Comparable, Decodable {
    /// 0-based.
    public var index: Int

    public init(_ index: Int) { self.index = index }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }

    /// Decoded only through an action's parameters (``ActionSchema``), as an integer.
    public init(from decoder: any Decoder) throws {
        index = try decoder.singleValueContainer().decode(Int.self)
    }
}
