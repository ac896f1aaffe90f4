import Foundation

/// What an action's JSON answer adds to its version: members as JSON text
/// (`"transaction":{…}`), written by the demo with `JSONEncoder`.
public struct ActionReport: Sendable, Equatable {
    /// Object members, without the braces: `"position":3,"transaction":{…}`.
    public var members: String
    public init(members: String) { self.members = members }

    /// A report of `value`'s encoded members (an `Encodable` struct's properties).
    public init<Value: Encodable>(encoding value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        members = text.count > 2 ? String(text.dropFirst().dropLast()) : ""
    }
}
