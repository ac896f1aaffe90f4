import SeededRandom
import Testing
@testable import DiffableWeb

@Suite("Int.grouped: thousands separated by commas, whatever the locale")
struct IntGroupedTests {
    /// The rule spelled the slow way: the decimal digits, a comma before every group of three
    /// counted from the right.
    static func reference(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    @Test("known values", arguments: [
        (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (1_034, "1,034"), (12_345, "12,345"),
        (999_999, "999,999"), (1_000_000, "1,000,000"), (-1, "-1"), (-1_234_567, "-1,234,567"),
        (Int.max, "9,223,372,036,854,775,807"), (Int.min, "-9,223,372,036,854,775,808"),
    ])
    func known(_ number: Int, _ expected: String) {
        #expect(number.grouped == expected)
    }

    @Test("agrees with the rule for random numbers of every length")
    func property() {
        var random = SeededRandom(seed: 2512)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 1...18, using: &random)
            var limit = 1
            for _ in 0..<digits { limit *= 10 }
            let number = Int.random(in: -limit...limit, using: &random)
            #expect(number.grouped == Self.reference(number), "\(number)")
        }
    }
}
