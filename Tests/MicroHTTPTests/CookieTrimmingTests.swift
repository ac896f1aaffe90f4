import Foundation
@testable import MicroHTTP
import Testing

@Suite("Cookies: trimming without Foundation")
struct CookieTrimmingTests {
    @Test("ASCII is trimmed of spaces and tabs here, anything else by Foundation: the same as trimmingCharacters(in: .whitespaces)")
    func sameAsFoundation() {
        for text in ["", " ", "\t", "\t x \t", "x", " a b ", "a\tb", "\u{00A0}x\u{00A0}", "é ", " \u{3000}y", "\n x \n", "  \"q\"  "] {
            #expect(Cookies.trimmed(Substring(text)) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            // As a slice of a longer header, as the parser passes it.
            let header = "k=" + text + ";"
            let slice = header.dropFirst(2).dropLast()
            #expect(Cookies.trimmed(slice) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription) in a header")
        }
    }
}
