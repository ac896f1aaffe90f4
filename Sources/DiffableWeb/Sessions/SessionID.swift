/// A session identifier: 128 random bits, written as 32 lowercase hex digits.
///
/// Kept as two words, not as its text: a session's two identifiers cost no allocation, and
/// neither does every copy of them (the registry's tables, the idle order, list keys). The
/// text is made when it is needed (a cookie, a URL, a store's key).
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    /// The identifier as it is written: 32 lowercase hex digits.
    public var value: String {
        Self.hex(high) + Self.hex(low)
    }

    /// A fresh identifier from the system's cryptographically secure generator.
    public static func random() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        return SessionID(high: generator.next(), low: generator.next())
    }

    /// Accepts only the exact shape we issue; anything else (forged, truncated, other
    /// alphabets, upper case) is rejected so it can never name a session.
    public init?(_ text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 32, let high = Self.word(digits[0..<16]), let low = Self.word(digits[16..<32]) else { return nil }
        self.init(high: high, low: low)
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public var description: String { value }

    /// 16 lowercase hex digits, zero-padded.
    private static func hex(_ word: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * i)) & 0xF
                buffer[i] = nibble < 10 ? 48 + nibble : 87 + nibble
            }
            return 16
        }
    }

    /// The word 16 lowercase hex digits write; `nil` for anything else.
    private static func word(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var word: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case 48...57: nibble = digit - 48
            case 97...102: nibble = digit - 87
            default: return nil
            }
            word = word << 4 | UInt64(nibble)
        }
        return word
    }
}
