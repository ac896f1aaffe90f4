/// A property of a list's state that is not saved: it starts anew after a restart (an image
/// loaded, a counter of this run), as a cache would. Everything else a list stores is saved.
///
/// ```swift
/// var layout = PhotoLayout.grid                     // saved
/// @Transient var loaded: Set<String> = []           // loaded again after a restart
/// ```
/// Two states that differ only by it are still different states (it is compared and hashed).
@propertyWrapper
public struct Transient<Value: TransientValue & Sendable>: Sendable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Transient: Equatable where Value: Equatable {}
extension Transient: Hashable where Value: Hashable {}

extension Transient: Codable {
    /// Saved as nothing.
    public func encode(to encoder: any Encoder) throws {}
    /// Read back as its empty value.
    public init(from decoder: any Decoder) throws { self.init(wrappedValue: Value()) }
}

extension KeyedEncodingContainer {
    /// A `Transient` property writes no key.
    public mutating func encode<Value>(_ value: Transient<Value>, forKey key: Key) throws {}
}

extension KeyedDecodingContainer {
    /// A `Transient` property reads no key: it is its empty value.
    public func decode<Value>(_ type: Transient<Value>.Type, forKey key: Key) throws -> Transient<Value> {
        Transient(wrappedValue: Value())
    }
}

/// What a ``Transient`` property holds: a value with an empty one (`0`, `false`, `[]`).
public protocol TransientValue {
    init()
}

extension Int: TransientValue {}
extension Double: TransientValue {}
extension Bool: TransientValue {}
extension String: TransientValue {}
extension Array: TransientValue {}
extension Set: TransientValue {}
extension Dictionary: TransientValue {}
