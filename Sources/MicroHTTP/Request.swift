import Foundation

/// One HTTP request, fully read (headers and body) before the handler sees it.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///     guard request.method == .get else { return HTTPError(.methodNotAllowed).response }
///     let q = request.query["q"] ?? ""                  // percent-decoded
///     let sid = request.cookies["sid"]
///     let resumeFrom = request.headers["Last-Event-ID"]  // case-insensitive
///     return .text("\(request.path) \(q) \(sid ?? "-") \(resumeFrom ?? "-")")
/// }
/// ```
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The path, percent-decoded (`/a%20b` → `/a b`; invalid UTF-8 becomes U+FFFD). Use
    /// `pathSegments` when a decoded `/` (`%2F`) must not split a segment.
    public var path: String
    /// The path exactly as the client sent it, without the query.
    public var rawPath: String
    /// The query's name/value pairs in order, percent- and `+`-decoded; `?flag` has a `nil` value.
    public var queryItems: [QueryItem]
    public var headers: HTTPHeaders
    public var cookies: Cookies
    public var body: [UInt8]
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The peer's numeric address, when known.
    public var remoteAddress: String?

    public init(
        method: HTTPMethod = .get,
        rawPath: String,
        queryItems: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        version: String = "HTTP/1.1",
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.rawPath = rawPath
        self.path = PercentDecoding.decode(rawPath, plusAsSpace: false)
        self.queryItems = queryItems
        self.headers = headers
        self.cookies = Cookies(header: headers.values(for: "Cookie"))
        self.body = body
        self.version = version
        self.remoteAddress = remoteAddress
    }

    /// Builds a request from a target such as `/search?q=a%20b` (handy in tests of handlers).
    public init(method: HTTPMethod = .get, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(
            method: method,
            rawPath: String(parts[0]),
            queryItems: parts.count > 1 ? QueryItem.parse(String(parts[1])) : [],
            headers: headers,
            body: body
        )
    }

    /// The query items looked up by name (first value wins).
    public var query: Query { Query(items: queryItems) }

    /// The path split on `/`, each segment percent-decoded on its own (so `%2F` stays inside
    /// its segment). Empty segments are dropped.
    public var pathSegments: [String] {
        // Split on the byte `/` (never inside another character's UTF-8), not on `Character`s,
        // whose grapheme breaking was 1% of a keystroke; into an array made once at its size
        // (`split` then `map` made and grew two).
        var path = rawPath
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            var segments: [String] = []
            segments.reserveCapacity(bytes.reduce(1) { $1 == slash ? $0 + 1 : $0 })
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == slash {
                if end > start {
                    let segment = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    segments.append(PercentDecoding.decode(segment, plusAsSpace: false))
                }
                start = end + 1
            }
            return segments
        }
    }

    /// The `Last-Event-ID` header an `EventSource` sends when it reconnects.
    public var lastEventID: String? { headers["Last-Event-ID"] }

    /// The body as UTF-8 text (invalid bytes become U+FFFD).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Decodes a JSON body.
    public func decodeJSON<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(body))
    }
}

/// One `name=value` pair of a query string.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String?
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// Parses `a=1&b=x%20y&flag` (decoding `%XX` and `+`).
    public static func parse(_ query: String) -> [QueryItem] {
        query.split(separator: "&").map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return QueryItem(
                name: PercentDecoding.decode(String(kv[0]), plusAsSpace: true),
                value: kv.count > 1 ? PercentDecoding.decode(String(kv[1]), plusAsSpace: true) : nil
            )
        }
    }
}

/// Query items by name: `request.query["q"]`.
public struct Query: Sendable {
    public let items: [QueryItem]
    /// The first value for `name`; `""` for a bare `?name`. - Complexity: O(n).
    public subscript(name: String) -> String? {
        guard let item = items.first(where: { $0.name == name }) else { return nil }
        return item.value ?? ""
    }
    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        items.filter { $0.name == name }.map { $0.value ?? "" }
    }
}

/// `%XX` decoding over bytes: malformed escapes stay as they are, and the result is decoded
/// as UTF-8 with invalid sequences replaced, so no input can trap.
enum PercentDecoding {
    static func decode(_ string: String, plusAsSpace: Bool) -> String {
        let utf8 = string.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return string
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i < utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "%"),
               let h1 = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), h1 < utf8.endIndex,
               let h2 = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), h2 < utf8.endIndex,
               let hi = hexValue(utf8[h1]), let lo = hexValue(utf8[h2]) {
                out.append(hi << 4 | lo)
                i = utf8.index(after: h2)
                continue
            }
            out.append(plusAsSpace && c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
            i = utf8.index(after: i)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
