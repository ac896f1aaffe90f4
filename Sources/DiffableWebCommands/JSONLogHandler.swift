#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// A `LogHandler` that writes one JSON object per line (`--log-format json`), for log
/// collectors that read structured lines (Loki, Elasticsearch, `jq`).
///
/// ```json
/// {"time":"2026-05-01T09:30:12.345Z","level":"info","label":"diffable-web","message":"stopping","request_id":"4f1c…","source":"DiffableWeb"}
/// ```
/// Fields: `time` (RFC 3339, UTC, milliseconds), `level`, `label`, `message`, then every
/// metadata key in key order (the handler's, which is the `Logger`'s, then the metadata
/// provider's, then the call's, later ones winning) as JSON values: strings, arrays, objects;
/// a `.stringConvertible` value as its description. Then `source`. A metadata key that is one of
/// those five names is written with a leading `_` (a JSON object's names should be unique).
///
/// Each line is written with one `write(2)` under a lock shared by every handler on the same
/// output, so lines from concurrent tasks never interleave. It never throws and never traps: a
/// failed write is dropped (there is nowhere to report it).
///
/// Lives in DiffableWebCommands, not in the DiffableWeb library: how a process writes its logs
/// is the executable's choice (a library never bootstraps logging); an app built on DiffableWeb
/// brings its own backend.
public struct JSONLogHandler: LogHandler {
    /// Where lines go: a file descriptor and the lock its lines are written under.
    public final class Output: Sendable {
        let fileDescriptor: Int32
        private let lock = Mutex(())

        /// Lines to `fileDescriptor` (not closed by this object).
        public init(fileDescriptor: Int32) {
            self.fileDescriptor = fileDescriptor
        }

        /// Standard error, shared by every handler that writes there.
        public static let standardError = Output(fileDescriptor: 2)

        func write(_ line: [UInt8]) {
            lock.withLock { _ in
                line.withUnsafeBytes { buffer in
                    guard var base = buffer.baseAddress else { return }
                    var left = buffer.count
                    // One write(2) per line; the loop only finishes a write a signal or a full
                    // pipe cut short.
                    while left > 0 {
                        let written = Self.systemWrite(fileDescriptor, base, left)
                        if written < 0 {
                            if errno == EINTR { continue }
                            return
                        }
                        if written == 0 { return }
                        left -= written
                        base += written
                    }
                }
            }
        }

        private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
            #else
            Darwin.write(descriptor, bytes, count)
            #endif
        }
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: Output

    /// A handler for `label` writing to `output` (standard error by default).
    public init(label: String, output: Output = .standardError, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.output = output
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        output.write(line(for: event, at: Self.now()))
    }

    /// The line for `event` at `time` (milliseconds since 1970), newline included.
    func line(for event: LogEvent, at time: Int64) -> [UInt8] {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        var writer = JSONLineWriter()
        writer.out.append(UInt8(ascii: "{"))
        writer.field("time", first: true); writer.string(Self.rfc3339(milliseconds: time))
        writer.field("level"); writer.string(event.level.rawValue)
        writer.field("label"); writer.string(label)
        writer.field("message"); writer.string(event.message.description)
        for key in merged.keys.sorted() {
            writer.field(Self.reserved.contains(key) ? "_" + key : key)
            writer.value(merged[key]!)
        }
        writer.field("source"); writer.string(event.source)
        writer.out.append(contentsOf: "}\n".utf8)
        return writer.out
    }

    private static let reserved: Set<String> = ["time", "level", "label", "message", "source"]

    /// Now, in milliseconds since 1970 (the wall clock: log lines are read against other clocks).
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// `2026-05-01T09:30:12.345Z` for `milliseconds` since 1970.
    static func rfc3339(milliseconds: Int64) -> String {
        let millis = Int(((milliseconds % 1000) + 1000) % 1000)
        var seconds = time_t((milliseconds - Int64(millis)) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))T"
            + "\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2)).\(digits(Int32(millis), 3))Z"
    }
}

/// A log line's JSON, escaped per RFC 8259.
struct JSONLineWriter {
    var out: [UInt8] = []

    init() { out.reserveCapacity(256) }

    mutating func field(_ name: String, first: Bool = false) {
        if !first { out.append(UInt8(ascii: ",")) }
        string(name)
        out.append(UInt8(ascii: ":"))
    }

    mutating func value(_ value: Logger.Metadata.Value) {
        switch value {
        case .string(let text): string(text)
        case .stringConvertible(let convertible): string(convertible.description)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            out.append(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted().enumerated() {
                field(key, first: index == 0)
                self.value(dictionary[key]!)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`… or
    /// `\u00XX`; everything else as its UTF-8 (a Swift string is valid Unicode).
    mutating func string(_ text: String) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
