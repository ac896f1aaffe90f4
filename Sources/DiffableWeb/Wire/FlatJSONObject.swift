/// A JSON object read without `JSONDecoder` when it is flat and plain: string keys; values that
/// are strings without escapes or control characters, integers (`-?(0|[1-9][0-9]*)`, at most 18
/// digits), `true`, `false` or `null`; no key twice; valid UTF-8. What it reads is what
/// ``ActionParameters/init(body:for:)`` makes of the same body through `JSONDecoder`
/// (``JSONScalar/text``; a null is absent); for anything else it returns `nil`, and the body
/// goes through `JSONDecoder`, which decides.
enum FlatJSONObject {
    static func parse(_ bytes: [UInt8]) -> [String: String]? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        var at = 0
        func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }
        }
        /// A string without escapes, `at` on its opening quote.
        func string() -> String? {
            guard at < bytes.count, bytes[at] == 0x22 else { return nil }
            let start = at + 1
            var end = start
            while end < bytes.count, bytes[end] != 0x22 {
                if bytes[end] == 0x5C || bytes[end] < 0x20 { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            at = end + 1
            return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var values: [String: String] = [:]
        var seen = Set<String>()
        skipSpace()
        guard at < bytes.count, bytes[at] == 0x7B else { return nil }
        at += 1
        skipSpace()
        if at < bytes.count, bytes[at] == 0x7D {
            at += 1
        } else {
            while true {
                skipSpace()
                guard let key = string(), seen.insert(key).inserted else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == 0x3A else { return nil }
                at += 1
                skipSpace()
                guard at < bytes.count else { return nil }
                switch bytes[at] {
                case 0x22:
                    guard let value = string() else { return nil }
                    values[key] = value
                case 0x2D, 0x30...0x39:
                    let start = at
                    if bytes[at] == 0x2D { at += 1 }
                    let digits = at
                    while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
                    let count = at - digits
                    guard count >= 1, count <= 18, count == 1 || bytes[digits] != 0x30 else { return nil }
                    // A fraction or an exponent: JSONDecoder's to read.
                    if at < bytes.count, bytes[at] == 0x2E || bytes[at] == 0x65 || bytes[at] == 0x45 { return nil }
                    guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self),
                          let number = Int(text) else { return nil }
                    values[key] = String(number)
                default:
                    let rest = UnsafeBufferPointer(rebasing: bytes[at...])
                    if rest.starts(with: "true".utf8) { values[key] = "true"; at += 4 }
                    else if rest.starts(with: "false".utf8) { values[key] = "false"; at += 5 }
                    else if rest.starts(with: "null".utf8) { at += 4 }
                    else { return nil }
                }
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == 0x2C { at += 1; continue }
                guard bytes[at] == 0x7D else { return nil }
                at += 1
                break
            }
        }
        skipSpace()
        return at == bytes.count ? values : nil
    }
}
