/// A session identifier: 128 random bits as 32 lowercase hex digits.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    /// A fresh identifier from the system's cryptographically secure generator.
    public static func random() -> SessionID {
        SessionID(unchecked: RandomHex.digits(32))
    }

    /// Accepts only the exact shape we issue; anything else (forged, truncated, other
    /// alphabets) is rejected so it can never name a session.
    public init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        value = text
    }

    private init(unchecked value: String) { self.value = value }

    public var description: String { value }
}
