import Testing
@testable import DiffableWeb

/// A session id is 128 bits kept as two words; its text is 32 lowercase hex digits, and only
/// that exact shape names one.
struct SessionIDTests {
    @Test func randomIdsReadBackFromTheirText() throws {
        for _ in 0..<200 {
            let id = SessionID.random()
            let text = id.value
            #expect(text.utf8.count == 32)
            #expect(text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
            let parsed = try #require(SessionID(text))
            #expect(parsed == id && parsed.hashValue == id.hashValue && parsed.description == text)
        }
    }

    @Test(arguments: [
        "00000000000000000000000000000000", "0123456789abcdef0123456789abcdef",
        "ffffffffffffffffffffffffffffffff", "f0000000000000000000000000000001",
    ])
    func textRoundTrips(_ text: String) throws {
        #expect(try #require(SessionID(text)).value == text)
    }

    @Test(arguments: [
        "", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
        "0123456789ABCDEF0123456789abcdef", "0123456789abcdeg0123456789abcdef", "0123456789abcdef 123456789abcdef",
        "0123456789abcdef0123456789abcdé", "-123456789abcdef0123456789abcdef",
    ])
    func otherShapesNameNoSession(_ text: String) {
        #expect(SessionID(text) == nil)
    }

    @Test func differentHalvesAreDifferentIds() throws {
        let a = try #require(SessionID("0000000000000001" + "0000000000000000"))
        let b = try #require(SessionID("0000000000000000" + "0000000000000001"))
        #expect(a != b)
    }
}
