import Foundation
import Testing

@testable import DiffableWeb

/// The hand-written JSON writer against what JSONSerialization reads back.
struct JSONWriterTests {
    private func written(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (44, "44"), (12.5, "12.5"), (12.34, "12.34"),
        (-0.05, "-0.05"), (0.1, "0.1"), (1000.01, "1000.01"), (-287.3, "-287.3"), (1e14, "100000000000000"),
    ] as [(Double, String)])
    func numbersInHundredthsAreFixedPoint(value: Double, expected: String) {
        #expect(written { $0.number(value) } == expected)
    }

    @Test(arguments: [1.0 / 3.0, 0.125, 1e20, -2.0e-7, 123_456.789])
    func otherNumbersRoundTrip(value: Double) throws {
        let text = written { $0.number(value) }
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8), options: []) as? [Double]
        #expect(parsed == [value], "\(text)")
    }

    @Test func nonFiniteNumbersBecomeZero() {
        #expect(written { $0.number(.infinity) } == "0")
        #expect(written { $0.number(.nan) } == "0")
    }

    @Test(arguments: [0, 7, -7, 10, 1_000_000, Int.max, Int.min])
    func integersMatchTheStandardLibrary(value: Int) {
        #expect(written { $0.int(value) } == String(value))
    }

    @Test func stringsAreEscaped() throws {
        let hostile = "a\"b\\c\n\t<script>\u{01}é"
        let text = written { $0.string(hostile) }
        #expect(!text.contains("<"))
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8), options: []) as? [String]
        #expect(parsed == [hostile])
    }
}
