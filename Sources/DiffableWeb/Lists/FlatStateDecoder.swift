/// Reads a list's state from the flat `[String: String]` the untyped `Demo` API saved (a
/// store written before the list was typed): each stored property from the key of its name,
/// numbers and booleans from their text. A property the dictionary lacks keeps failing as a
/// missing key, so the caller falls back to a new session's state for it as a whole.
struct FlatStateDecoder: Decoder {
    let values: [String: String]
    var codingPath: [any CodingKey] = []
    /// A nested value's text (an enum of strings reads its raw value from it).
    var single: String?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(values: values))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.flat }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard let single else { throw Self.flat }
        return Single(text: single, codingPath: codingPath)
    }

    static let flat = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a flat state holds strings by key"))

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: String]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { values.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { values[key.stringValue] == nil }

        private func text(_ key: Key) throws -> String {
            guard let text = values[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "not in the saved state"))
            }
            return text
        }

        private func parsed<T: LosslessStringConvertible>(_ key: Key) throws -> T {
            let text = try text(key)
            guard let value = T(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "“\(text)” is not a \(T.self)")
            }
            return value
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String { try text(key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try parsed(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try parsed(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try parsed(key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            _ = try text(key)  // a property the dictionary lacks is missing, whatever its type
            if let lossless = type as? any LosslessStringConvertible.Type, let value = lossless.init(try text(key)) as? T { return value }
            // An enum of strings reads its raw value; a nested value was never flat.
            return try T(from: FlatStateDecoder(values: [:], codingPath: codingPath + [key], single: values[key.stringValue]))
        }

        func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws -> KeyedDecodingContainer<Nested> {
            throw FlatStateDecoder.flat
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FlatStateDecoder.flat }
        func superDecoder() throws -> any Decoder { FlatStateDecoder(values: values) }
        func superDecoder(forKey key: Key) throws -> any Decoder { FlatStateDecoder(values: values) }
    }
}

extension FlatStateDecoder {
    /// One value's text, for a type that decodes itself from a single value (an enum of strings).
    struct Single: SingleValueDecodingContainer {
        let text: String
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { false }
        func decode(_ type: String.Type) throws -> String { text }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if let lossless = type as? any LosslessStringConvertible.Type, let value = lossless.init(text) as? T { return value }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "“\(text)” is not a \(T.self)"))
        }
    }
}
