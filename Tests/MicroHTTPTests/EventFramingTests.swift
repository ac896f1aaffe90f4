import SeededRandom
import Testing

@testable import MicroHTTP

/// `EventStream.frame` against a line-by-line reference of the SSE rules: CR, LF and CRLF each
/// end a line, and every line of data gets its own `data: ` field.
@Suite("Event framing")
struct EventFramingTests {
    private static func reference(_ data: String) -> String {
        var lines: [String] = [], line = ""
        var scalars = Array(data.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\r" || scalar == "\n" {
                lines.append(line)
                line = ""
                if scalar == "\r", scalars.first == "\n" { scalars.removeFirst() }
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        lines.append(line)
        return lines.map { "data: \($0)\n" }.joined() + "\n"
    }

    @Test(arguments: ["", "plain", "a\nb", "a\r\nb", "a\rb", "\n", "\r\n", "\r", "trailing\n", "\n\nleading",
                      "mixed\r\r\n\n\rend", "{\"html\":\"<li>é 🏔</li>\"}", String(repeating: "x", count: 100_000)])
    func dataLinesMatchTheReference(data: String) {
        let framed = String(decoding: EventStream.frame(event: nil, id: nil, data: data), as: UTF8.self)
        #expect(framed == Self.reference(data))
    }

    @Test func randomDataMatchesTheReference() {
        let alphabet: [Character] = ["a", "\r", "\n", "\r\n", "é", " "]
        var generator = SeededRandom(seed: 0x5EE)
        for _ in 0..<500 {
            let length = Int.random(in: 0..<40, using: &generator)
            let data = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let framed = String(decoding: EventStream.frame(event: "e", id: "7", data: data), as: UTF8.self)
            #expect(framed == "event: e\nid: 7\n" + Self.reference(data), "\(data.debugDescription)")
        }
    }
}
