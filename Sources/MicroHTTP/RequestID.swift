import Logging
import Synchronization

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
    /// Ids are a count, keyed and mixed: `key` is drawn once from the system's random
    /// generator, so two processes' ids differ, and each request costs an atomic add, not a
    /// `getrandom` call (a system call per request was 1% of a keystroke's server CPU).
    private static let key: UInt64 = { var generator = SystemRandomNumberGenerator(); return generator.next() }()
    private static let count = Atomic<UInt64>(0)

    /// A new id: 16 lowercase hexadecimal digits, unique within the process (a bijection of
    /// a count) and unlike the last one (SplitMix64's finalizer spreads every bit).
    public static func make() -> String {
        let (counted, _) = count.add(1, ordering: .relaxed)
        let value = mixed(counted &+ key)
        return String(unsafeUninitializedCapacity: 16) { bytes in
            for index in 0..<16 { bytes[index] = digits[Int((value >> UInt64(60 - 4 * index)) & 15)] }
            return 16
        }
    }

    /// SplitMix64's output function: a bijection of 64-bit values that looks random.
    static func mixed(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
        z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
        return z ^ (z >> 31)
    }
}
