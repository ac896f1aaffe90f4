/// The decoder behind a ``WebList``'s actions: it reads an `Action` enum's synthesized
/// `Decodable` in two ways. Probing (``ActionSchema/of(_:)``), it lists the cases and records
/// each case's parameters (names, types, optional or not) while handing back placeholder
/// values. Decoding a request, it gives the case its parameters, already checked and typed
/// against that schema (``ActionValue``): no JSON is written or read again.
enum ActionCoding {
    /// What a probe found so far.
    final class Probe {
        /// The cases, once the enum's coding keys were seen.
        var caseNames: [String]?
        /// The case being probed (`nil`: the first pass, which lists the cases).
        var selected: String?
        var parameters: [ActionSchema.Parameter] = []
    }

    enum Mode {
        case probing(Probe)
        case values(action: String, parameters: [String: ActionValue])
    }

    struct Decoder: Swift.Decoder {
        let mode: Mode
        let depth: Int
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        init(_ mode: Mode, depth: Int = 0) {
            self.mode = mode
            self.depth = depth
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Container<Key>(mode: mode, depth: depth))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw WebListError.unsupportedAction("an action is an enum case with named parameters, not a list")
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw WebListError.unsupportedAction("an action is an enum case with named parameters, not a single value")
        }
    }

    /// Depth 0: the enum (its one key is the action's name); depth 1: the case's parameters.
    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let mode: Mode
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            guard depth == 0 else { return [] }
            switch mode {
            case .probing(let probe):
                guard let selected = probe.selected else {
                    probe.caseNames = CodingKeyCases.all(Key.self)?.map(\.stringValue)
                    return []
                }
                return Key(stringValue: selected).map { [$0] } ?? []
            case .values(let action, _):
                return Key(stringValue: action).map { [$0] } ?? []
            }
        }

        func contains(_ key: Key) -> Bool {
            switch mode {
            case .probing: depth == 0 && allKeys.contains { $0.stringValue == key.stringValue }
            case .values(_, let parameters): depth == 0 ? allKeys.contains { $0.stringValue == key.stringValue } : parameters[key.stringValue] != nil
            }
        }

        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

        func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws -> KeyedDecodingContainer<Nested> {
            guard depth == 0 else { throw WebListError.unsupportedAction("parameter \(key.stringValue): nested objects are not parameters") }
            return KeyedDecodingContainer(Container<Nested>(mode: mode, depth: 1))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw WebListError.unsupportedAction("parameter \(key.stringValue): name the case's associated values (case add(item: String))")
        }

        func superDecoder() throws -> any Swift.Decoder { throw WebListError.unsupportedAction("superDecoder") }
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder { throw WebListError.unsupportedAction("superDecoder") }

        // MARK: Values

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try value(key, .string, required: true, placeholder: "") { if case .string(let text) = $0 { text } else { nil } }
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try value(key, .integer, required: true, placeholder: 0) { if case .integer(let number) = $0 { number } else { nil } }
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try value(key, .number, required: true, placeholder: 0) { if case .number(let number) = $0 { number } else { nil } }
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try value(key, .boolean, required: true, placeholder: false) { if case .boolean(let flag) = $0 { flag } else { nil } }
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try generic(type, forKey: key, required: true)
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try optional(key) { try value(key, .string, required: false, placeholder: "") { if case .string(let text) = $0 { text } else { nil } } }
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try optional(key) { try value(key, .integer, required: false, placeholder: 0) { if case .integer(let number) = $0 { number } else { nil } } }
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try optional(key) { try value(key, .number, required: false, placeholder: 0) { if case .number(let number) = $0 { number } else { nil } } }
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try optional(key) { try value(key, .boolean, required: false, placeholder: false) { if case .boolean(let flag) = $0 { flag } else { nil } } }
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try optional(key) { try generic(type, forKey: key, required: false) }
        }

        /// Probing, a parameter is recorded and the placeholder given back; otherwise the
        /// parameter's value (a probe returns `nil` for an optional one: its case has no
        /// other way to be made).
        private func optional<T>(_ key: Key, _ read: () throws -> T) throws -> T? {
            if case .values(_, let parameters) = mode, parameters[key.stringValue] == nil { return nil }
            return try read()
        }

        private func value<T>(_ key: Key, _ type: ActionSchema.ParameterType, required: Bool, choices: [String]? = nil, position: Bool = false,
                              placeholder: T,
                              _ extract: (ActionValue) -> T?) throws -> T {
            switch mode {
            case .probing(let probe):
                guard depth == 1 else { throw WebListError.unsupportedAction("\(key.stringValue) is not a parameter") }
                // An unnamed associated value (`case add(String)`) is `_0` to the synthesized
                // coding: a parameter needs a name a form and a script can use.
                if key.stringValue.hasPrefix("_"), Int(key.stringValue.dropFirst()) != nil {
                    throw WebListError.unsupportedAction("\(probe.selected ?? "an action")'s associated value needs a name (case \(probe.selected ?? "add")(item: String))")
                }
                probe.parameters.append(.init(name: key.stringValue, type: type, required: required, choices: choices, position: position))
                return placeholder
            case .values(_, let parameters):
                guard let given = parameters[key.stringValue] else { throw ActionError.missingParameter(key.stringValue) }
                guard let value = extract(given) else { throw ActionError.invalidParameter(key.stringValue, "must be \(type.rawValue)") }
                return value
            }
        }

        /// `[String]` (an array), or an enum of strings that is `CaseIterable` (a string from a
        /// fixed set); anything else is not a parameter the API and forms can carry.
        private func generic<T>(_ type: T.Type, forKey key: Key, required: Bool) throws -> T {
            if type == [String].self {
                guard let placeholder = [String]() as? T else { throw WebListError.unsupportedAction("\(T.self)") }
                return try value(key, .array, required: required, placeholder: placeholder) {
                    if case .array(let items) = $0 { items as? T } else { nil }
                }
            }
            if type == ItemPosition.self {
                let position = try value(key, .integer, required: required, position: true, placeholder: ItemPosition(0)) {
                    if case .integer(let index) = $0 { ItemPosition(index) } else { nil }
                }
                guard let typed = position as? T else { throw WebListError.unsupportedAction("\(T.self)") }
                return typed
            }
            if let cases = StringChoices.cases(of: type) {
                let names = cases.map(\.name)
                guard let first = cases.first else { throw WebListError.unsupportedAction("\(T.self) has no cases") }
                let text = try value(key, .string, required: required, choices: names, placeholder: first.name) {
                    if case .string(let text) = $0 { text } else { nil }
                }
                guard let chosen = cases.first(where: { $0.name == text }) else {
                    throw ActionError.invalidParameter(key.stringValue, "must be one of \(names.joined(separator: ", "))")
                }
                return chosen.value
            }
            throw WebListError.unsupportedAction("parameter \(key.stringValue): \(T.self) (use String, Int, Double, Bool, [String], ItemPosition, or a CaseIterable enum of strings)")
        }
    }
}

/// A parameter's value, typed as its action's schema says.
enum ActionValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case array([String])
}

/// The cases of a `CaseIterable` enum whose raw values are strings, with their names.
enum StringChoices {
    static func cases<T>(of type: T.Type) -> [(name: String, value: T)]? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        let all = elements(of: iterable)
        let named = all.compactMap { value -> (String, T)? in
            guard let raw = (value as? any RawRepresentable)?.rawValue as? String, let typed = value as? T else { return nil }
            return (raw, typed)
        }
        return named.count == all.count ? named.map { (name: $0.0, value: $0.1) } : nil
    }

    private static func elements<C: CaseIterable>(of type: C.Type) -> [Any] { C.allCases.map { $0 } }
}
