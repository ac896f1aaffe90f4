import Logging

/// A request's id: the client's `X-Request-ID` when it sent a usable one (nginx's
/// `$request_id`), else one made here. It is returned in the response's `X-Request-ID`, is the
/// `request_id` of the request's log line, and is the `request_id` metadata of every log line
/// written while the handler runs (through ``metadataProvider``, when the logging backend was
/// bootstrapped with it).
public enum RequestID {
    /// The header that carries it, both ways.
    public static let header = "X-Request-ID"

    /// The id of the request whose handler is running in this task, if any.
    @TaskLocal public static var current: String?

    /// Adds `request_id` to every log line written inside a request's handler:
    /// `LoggingSystem.bootstrap(makeHandler, metadataProvider: RequestID.metadataProvider)`.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let id = current else { return [:] }
        return ["request_id": .string(id)]
    }

    /// The client's id when it is 1…128 visible ASCII characters (no spaces, quotes or
    /// backslashes: it goes into logs and a header as is), else `nil`.
    public static func accepted(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128,
              value.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != 34 && $0 != 92 }) else { return nil }
        return value
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A new id: 16 lowercase hexadecimal digits from the system's random generator.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        var bytes = [UInt8](repeating: 48, count: 16)
        for index in 0..<16 { bytes[index] = digits[Int((value >> UInt64(60 - 4 * index)) & 15)] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
