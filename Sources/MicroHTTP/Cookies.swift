import Foundation

/// The cookies a request carries (`Cookie: a=1; b=2`), by name.
///
/// ```swift
/// if let sid = request.cookies["sid"] { ... }
/// ```
public struct Cookies: Sendable, Hashable {
    /// Name/value pairs in the order sent.
    public let pairs: [Pair]

    public struct Pair: Sendable, Hashable {
        public let name: String
        public let value: String
    }

    /// Parses every `Cookie` header (browsers send one; HTTP/2 proxies may send several).
    /// Malformed pieces are skipped; double quotes around a value are removed.
    public init(header values: [String]) {
        var pairs: [Pair] = []
        for header in values {
            // Split on the bytes of `;` and `=` (ASCII: never inside another character's
            // UTF-8), not on `Character`s, whose grapheme breaking was 1.5% of a keystroke.
            let utf8 = header.utf8
            var start = utf8.startIndex
            while start < utf8.endIndex {
                let end = utf8[start...].firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
                defer { start = end < utf8.endIndex ? utf8.index(after: end) : end }
                guard let eq = utf8[start..<end].firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = Self.trimmed(header[start..<eq])
                var value = Self.trimmed(header[utf8.index(after: eq)..<end])
                if value.utf8.count >= 2, value.utf8.first == UInt8(ascii: "\""), value.utf8.last == UInt8(ascii: "\"") {
                    value = String(decoding: value.utf8.dropFirst().dropLast(), as: UTF8.self)
                }
                if !name.isEmpty { pairs.append(Pair(name: name, value: value)) }
            }
        }
        self.pairs = pairs
    }

    /// `text` without leading and trailing whitespace (`CharacterSet.whitespaces`: Unicode's
    /// spaces and tab). ASCII text is trimmed of spaces and tabs here: Foundation's trimming
    /// bridged through `NSString` and was 4% of a keystroke's server time.
    static func trimmed(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.trimmingCharacters(in: .whitespaces) }
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while start < end, utf8[utf8.index(before: end)] == 0x20 || utf8[utf8.index(before: end)] == 0x09 { end = utf8.index(before: end) }
        return String(text[start..<end])
    }

    /// The first cookie named `name`. - Complexity: O(n).
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }
}

/// A `Set-Cookie` header value.
///
/// ```swift
/// var response = Response.redirect(to: "/")
/// response.setCookie(SetCookie(name: "sid", value: id, maxAge: 86_400, httpOnly: true, sameSite: .lax))
/// ```
/// Characters that RFC 6265 does not allow in a name or value are dropped (so a value can
/// never inject attributes or header lines); encode values that need them.
public struct SetCookie: Sendable, Hashable {
    public enum SameSite: String, Sendable, Hashable {
        case strict = "Strict", lax = "Lax", none = "None"
    }

    public var name: String
    public var value: String
    public var path: String?
    public var domain: String?
    /// Seconds; `0` deletes the cookie.
    public var maxAge: Int?
    public var expires: Date?
    public var secure: Bool
    public var httpOnly: Bool
    public var sameSite: SameSite?

    public init(
        name: String, value: String, path: String? = "/", domain: String? = nil,
        maxAge: Int? = nil, expires: Date? = nil, secure: Bool = false,
        httpOnly: Bool = true, sameSite: SameSite? = .lax
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.maxAge = maxAge
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// A cookie that tells the browser to forget `name`.
    public static func expired(name: String, path: String? = "/") -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0)
    }

    /// The header value, e.g. `sid=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax`.
    public var headerValue: String {
        var parts = ["\(Self.filter(name, allowed: Self.isTokenByte))=\(Self.filter(value, allowed: Self.isCookieOctet))"]
        if let path { parts.append("Path=\(Self.filter(path, allowed: Self.isAttributeByte))") }
        if let domain { parts.append("Domain=\(Self.filter(domain, allowed: Self.isAttributeByte))") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if let expires { parts.append("Expires=\(Self.httpDate(expires))") }
        if secure || sameSite == SameSite.none { parts.append("Secure") }
        if httpOnly { parts.append("HttpOnly") }
        if let sameSite { parts.append("SameSite=\(sameSite.rawValue)") }
        return parts.joined(separator: "; ")
    }

    private static func filter(_ s: String, allowed: (UInt8) -> Bool) -> String {
        String(decoding: s.utf8.filter(allowed), as: UTF8.self)
    }

    private static func isCookieOctet(_ c: UInt8) -> Bool {
        c == 0x21 || (0x23...0x2B).contains(c) || (0x2D...0x3A).contains(c)
            || (0x3C...0x5B).contains(c) || (0x5D...0x7E).contains(c)
    }

    private static func isAttributeByte(_ c: UInt8) -> Bool {
        (0x20...0x7E).contains(c) && c != UInt8(ascii: ";")
    }

    static func isTokenByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(c)
        }
    }

    static func httpDate(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var tm = tm()
        gmtime_r(&t, &tm)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &tm)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
