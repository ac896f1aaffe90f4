import Foundation
import SeededRandom
import Testing

@testable import DiffableWeb

/// Action bodies read without JSONDecoder (`FlatJSONObject`) against the JSONDecoder path they
/// replace for flat, plain objects.
@Suite("Action bodies: flat JSON objects")
struct FlatJSONObjectTests {
    /// What `ActionParameters(body:)` made of `body` through JSONDecoder (`nil`: it refused).
    private func decoded(_ body: [UInt8]) -> [String: String]? {
        guard let object = try? JSONDecoder().decode([String: JSONScalar].self, from: Data(body)) else { return nil }
        var values: [String: String] = [:]
        for (key, value) in object {
            if case .strings = value { return nil }
            if let text = value.text { values[key] = text }
        }
        return values
    }

    @Test("a keystroke's body, and the edge cases read here, read as JSONDecoder reads them")
    func knownBodies() {
        let bodies = [
            #"{"query":"kan","seq":12}"#, #"{}"#, #" { } "#, #"{"a":null}"#, #"{"a":true,"b":false}"#, #"{"n":-0}"#,
            #"{"n":-42,"m":0}"#, #"{"n":123456789012345678}"#, "{\n\t\"q\" : \"Mönch\" ,\r\n\"s\":1}", #"{"emoji":"⛰️ 🏔"}"#,
            #"{"":""}"#,
        ]
        for body in bodies {
            let bytes = Array(body.utf8)
            let fast = FlatJSONObject.parse(bytes)
            #expect(fast != nil, "read here: \(body)")
            #expect(fast == decoded(bytes), "\(body)")
        }
    }

    @Test("what is not flat and plain is left to JSONDecoder")
    func leftToJSONDecoder() {
        let bodies = [
            #"{"q":"a\"b"}"#, #"{"q":"\u00e9"}"#, #"{"n":1.5}"#, #"{"n":1e3}"#, #"{"n":01}"#, #"{"n":1234567890123456789}"#,
            #"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":1,"a":2}"#, #"{"a":null,"a":1}"#, #"[]"#, #"{"a":1}x"#, #"{"a":1,}"#, #"{"a" 1}"#,
            #"{"a":tru}"#, #"{"a":truex}"#, #"{"a":-}"#, #""#, #"{"#, "{\"a\":\"\u{01}\"}",
        ]
        for body in bodies {
            #expect(FlatJSONObject.parse(Array(body.utf8)) == nil, "\(body)")
        }
        // Invalid UTF-8 inside a string.
        #expect(FlatJSONObject.parse(Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)) == nil)
    }

    @Test("property: random flat objects read as JSONDecoder reads them", arguments: [1, 2, 3, 4] as [UInt64])
    func randomObjects(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let alphabet = Array("abcXYZ 09-_/:é⛰ü".unicodeScalars)
        func text() -> String {
            String(String.UnicodeScalarView((0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }))
        }
        func space() -> String { ["", " ", "\n", "\t ", "\r\n"][Int.random(in: 0..<5, using: &rng)] }
        for _ in 0..<300 {
            var keys = Set<String>()
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let key = text()
                guard keys.insert(key).inserted else { continue }
                let value: String = switch Int.random(in: 0..<5, using: &rng) {
                case 0: "\"\(text())\""
                case 1: String(Int.random(in: -1_000_000...1_000_000, using: &rng))
                case 2: Bool.random(using: &rng) ? "true" : "false"
                case 3: "null"
                default: String(Int.random(in: -999_999_999_999_999_999...999_999_999_999_999_999, using: &rng))
                }
                members.append(space() + "\"\(key)\"" + space() + ":" + space() + value + space())
            }
            let body = Array((space() + "{" + members.joined(separator: ",") + (members.isEmpty ? space() : "") + "}" + space()).utf8)
            let fast = FlatJSONObject.parse(body)
            #expect(fast != nil, "\(String(decoding: body, as: UTF8.self))")
            #expect(fast == decoded(body), "\(String(decoding: body, as: UTF8.self))")
        }
    }
}
