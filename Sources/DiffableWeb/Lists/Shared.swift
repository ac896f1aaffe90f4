/// A value every session of a list reads and none saves: a catalog, a photo library, a
/// client. The app hands it over once, when it registers the list
/// (``WebList/descriptor(sharing:)``); each session's list gets it when it is made or
/// restored, and its saved state leaves it out.
///
/// ```swift
/// struct Mountains: WebList {
///     @Shared var catalog: MountainCatalog   // given once: Mountains.descriptor(sharing: [catalog])
///     var query = ""                         // saved
/// }
/// ```
/// Every `Shared` of a list compares equal and hashes as nothing: two states that differ only
/// by it are the same state.
@propertyWrapper
public struct Shared<Value: Sendable>: Sendable {
    private let value: Value?

    public var wrappedValue: Value {
        guard let value else {
            // Unreachable for a registered list: `descriptor(sharing:)` refuses to serve a list
            // whose shared values are missing, before any session exists.
            preconditionFailure("no shared \(Value.self) was registered with this list: pass it to descriptor(sharing:)")
        }
        return value
    }

    /// The value the app registered, found by its type.
    public init() {
        value = SharedValues.current?.first(Value.self)
    }

    /// A given value (tests, previews).
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// Whether the app registered a value of this type (checked when the list is registered).
    var isAvailable: Bool { value != nil }
}

extension Shared: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

extension Shared: Codable {
    /// Saved as nothing: the value comes from the app again on a restart.
    public func encode(to encoder: any Encoder) throws {}
    public init(from decoder: any Decoder) throws { self.init() }
}

extension KeyedEncodingContainer {
    /// A `Shared` property writes no key.
    public mutating func encode<Value>(_ value: Shared<Value>, forKey key: Key) throws {}
}

extension KeyedDecodingContainer {
    /// A `Shared` property reads no key: it is the app's registered value.
    public func decode<Value>(_ type: Shared<Value>.Type, forKey key: Key) throws -> Shared<Value> { Shared() }
}

/// The values an app registered with a list, found by type while the framework makes or
/// restores one of its sessions.
struct SharedValues: Sendable {
    let values: [any Sendable]

    func first<Value>(_ type: Value.Type) -> Value? {
        for value in values { if let match = value as? Value { return match } }
        return nil
    }

    @TaskLocal static var current: SharedValues?

    /// `body` with these values in reach of `@Shared` properties.
    func providing<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self, operation: body)
    }
}
