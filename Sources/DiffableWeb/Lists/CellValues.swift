/// A cell's `Encodable` value as the flat `[String: String]` a cell template reads: each
/// stored property by its coding key, numbers and booleans as their text, `nil` left out (a
/// missing key is false in a template). Nested values are not cell values: they are refused
/// when the app starts (``WebListError``), not at each render.
enum CellValues {
    static func encode<Cell: Encodable>(_ cell: Cell) throws -> [String: String] {
        let encoder = FlatEncoder()
        try cell.encode(to: encoder)
        return encoder.storage.values
    }

    final class Storage {
        var values: [String: String] = [:]
    }

    struct FlatEncoder: Encoder {
        let storage = Storage()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Container<Key>(storage: storage))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Refusing() }
        func singleValueContainer() -> any SingleValueEncodingContainer { Refusing() }
    }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: String, forKey key: Key) throws { storage.values[key.stringValue] = value }
        mutating func encode(_ value: Bool, forKey key: Key) throws { storage.values[key.stringValue] = value ? "true" : "false" }
        mutating func encode(_ value: Int, forKey key: Key) throws { storage.values[key.stringValue] = String(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { storage.values[key.stringValue] = String(value) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let text = value as? any LosslessStringConvertible {
                storage.values[key.stringValue] = text.description
            } else if let raw = (value as? any RawRepresentable)?.rawValue as? String {
                storage.values[key.stringValue] = raw
            } else {
                throw EncodingError.invalidValue(value, .init(codingPath: [key], debugDescription: "a cell's value is a string, a number, a boolean or their optional"))
            }
        }

        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) -> KeyedEncodingContainer<Nested> {
            KeyedEncodingContainer(Container<Nested>(storage: Storage()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Refusing() }
        mutating func superEncoder() -> any Encoder { FlatEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FlatEncoder() }
    }

    /// What a flat cell cannot hold (a list, a bare value): every write throws.
    struct Refusing: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        private func refuse() -> EncodingError {
            .invalidValue((), .init(codingPath: [], debugDescription: "a cell is a struct of strings, numbers and booleans"))
        }
        mutating func encodeNil() throws { throw refuse() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw refuse() }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
            KeyedEncodingContainer(Container<Nested>(storage: Storage()))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Refusing() }
        mutating func superEncoder() -> any Encoder { FlatEncoder() }
    }
}
