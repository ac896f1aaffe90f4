/// Random identifiers as lowercase hex digits, from the system's cryptographically secure
/// generator: session ids (32 digits), stream ids (16), list epochs (12).
enum RandomHex {
    /// `count` random hex digits (4 random bits each), zero-padded: always `count` long.
    /// - Complexity: O(count).
    static func digits(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(count + 16)
        while text.utf8.count < count {
            let word = String(generator.next() as UInt64, radix: 16)
            text += String(repeating: "0", count: 16 - word.utf8.count) + word
        }
        return String(text.prefix(count))
    }
}
