import Foundation

/// An HTTP error as a value, rendered in one place as JSON:
/// `{"error":"not_found","message":"No route for /x"}`.
///
/// The server's own refusals (413, 503, a failed handler's 500) use the same shape. A handler
/// may `throw` one or return `.response`:
/// ```swift
/// throw HTTPError(.notFound, message: "No list named \(name)")
/// return HTTPError(.methodNotAllowed, headers: ["Allow": "GET"]).response
/// ```
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: HTTPStatus
    /// A stable, machine-readable code (`not_found`, `payload_too_large`…).
    public var code: String
    /// A human-readable explanation.
    public var message: String
    public var headers: HTTPHeaders
    /// More integer members of the JSON body, e.g. `["index": 3]` for the failing element of a
    /// batch. Never `error` or `message` (those are ignored).
    public var details: [String: Int]

    public init(_ status: HTTPStatus, code: String? = nil, message: String? = nil, headers: HTTPHeaders = [:],
                details: [String: Int] = [:]) {
        self.status = status
        self.code = code ?? Self.defaultCode(for: status)
        self.message = message ?? status.reasonPhrase
        self.headers = headers
        self.details = details
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON response for this error.
    public var response: Response {
        var headers = self.headers
        headers["Content-Type"] = "application/json"
        return Response(status: status, headers: headers, body: .bytes(jsonBody))
    }

    var jsonBody: [UInt8] {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct Body: Encodable {
            let error: String, message: String, details: [String: Int]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(error, forKey: Key(stringValue: "error"))
                try container.encode(message, forKey: Key(stringValue: "message"))
                for (key, value) in details where key != "error" && key != "message" {
                    try container.encode(value, forKey: Key(stringValue: key))
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and integers always encode; the fallback only keeps this total.
        return (try? [UInt8](encoder.encode(Body(error: code, message: message, details: details))))
            ?? Array(#"{"error":"internal_error","message":""}"#.utf8)
    }

    /// `404 Not Found` → `not_found`.
    static func defaultCode(for status: HTTPStatus) -> String {
        switch status.code {
        case 413: return "payload_too_large"
        case 503: return "service_unavailable"
        default:
            let words = status.reasonPhrase.lowercased().split { !$0.isLetter && !$0.isNumber }
            return words.isEmpty ? "http_\(status.code)" : words.joined(separator: "_")
        }
    }
}
