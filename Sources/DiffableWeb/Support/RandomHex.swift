/// Random identifiers as lowercase hex digits, from the system's cryptographically secure
/// generator: stream ids (16 digits), list epochs (12). (Session ids are two words: ``SessionID``.)
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
