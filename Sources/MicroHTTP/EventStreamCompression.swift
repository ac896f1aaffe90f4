import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How event streams are compressed for clients that accept it (`Accept-Encoding: gzip`; every
/// browser's `EventSource` sends it).
///
/// The stream is one gzip member, flushed (`Z_SYNC_FLUSH`) after every event, so each event
/// reaches the client whole, as soon as it is sent. Each stream keeps its own deflate state
/// across events, so an event compresses against what the stream already sent: a Mountains
/// keystroke re-sends most of the previous event's ids and cells, and a 32 KiB window
/// (`windowBits` 15) holds the whole previous event. Measured on a typed Mountains sequence
/// (1,467 items, 1024×768, level 1): the first event 34,769 → ~7,200 bytes, a keystroke
/// ~0.17× its plain bytes (a 1 KiB window: 0.20×), ~0.07 ms of zlib per keystroke.
///
/// The level is 3 (session 10): on the captured events of the Datastar comparison's typed names
/// (docs/benchmarks-history.md, "Bytes per keystroke against Datastar … (session 10)") a keystroke's event is
/// 1,047 B at level 1, 1,010 at 2, 968 at 3, 907 at 4, 848 at 5 and 810 at 6, for 33, 35, 43,
/// 51, 68 and 123 µs of zlib per event. Measured end to end on a quiet machine (compare.py, two
/// rounds): level 4 gave 895 B a keystroke (0.44× the peer) for 0.284–0.308 ms of server CPU,
/// level 3 962 B (0.47×) for 0.268 ms: 3 keeps both of issue 22's targets (≤ 0.5× the peer's
/// bytes, ≤ 0.3 ms) with room.
///
/// The deflate state costs ~150 KiB while a stream is active (`windowBits` 15, `memoryLevel`
/// 5). A stream that sent no event between two heartbeats drops it (`GzipEncoder.heartbeat`):
/// an idle stream keeps a few hundred bytes (CRC, length), and its next event starts a fresh
/// state (that event does not match what came before; every later one does again).
///
/// Shared bytes (`SharedEventBytes`) of at least `spliceMinimumBytes` are deflated once and
/// spliced into every stream that sends them (a 2.8 MB snapshot sent to a thousand streams is
/// compressed once); smaller ones are compressed in each stream, against its history. Shared
/// bytes that stand alone (`SharedEventBytes.standsAlone`: a changeset's identifiers, which owe
/// little to the events before them) are spliced from `standaloneSpliceMinimumBytes` (4 KiB:
/// from 16 KiB, a quarter less deflate per keystroke on both keystroke sequences for 1.4% more
/// bytes, issue 37, session 24).
/// After a splice the stream's compressor starts afresh (`deflateReset`) rather than loading
/// the spliced bytes as its dictionary: the same bytes on the wire within 0.5% on the
/// keystroke benchmarks (docs/benchmarks-history.md, issue 37), without hashing 32 KiB per stream.
/// A handler that sets `Content-Encoding` itself (`identity`, say) is left alone.
public struct EventStreamCompression: Sendable, Hashable {
    /// zlib's level, 1 (fastest) to 9 (3 by default: see above).
    public var level: Int
    /// The window is 2^windowBits bytes: 9 to 15.
    public var windowBits: Int
    /// zlib's `memLevel`, 1 to 9: the hash table and the block buffer grow with it.
    public var memoryLevel: Int
    /// Events (or comments) smaller than this are stored, not compressed; 0 compresses all.
    public var minimumBytes: Int
    /// Shared parts of an event at least this large are spliced, deflated once for every
    /// stream; smaller ones are compressed by each stream against what it sent before.
    public var spliceMinimumBytes: Int
    /// The same for shared parts that stand alone (`SharedEventBytes.standsAlone`).
    public var standaloneSpliceMinimumBytes: Int
    /// zlib's match search at `level` (`deflateTune`), or `nil` for the level's own. By default, at
    /// level 3: a match of 64 bytes is good enough to stop at (the level's own: 32) and at most 16
    /// candidates are tried (32): a window's cells repeat long runs of markup. Fewer bytes on both
    /// keystroke sequences (10,000 mountains 7,334 → 7,292, the Datastar words 965 → 956) for a
    /// little less deflate time (docs/benchmarks-history.md, session 23).
    public var tuning: DeflateTuning?

    public init(level: Int = 3, windowBits: Int = 15, memoryLevel: Int = 5, minimumBytes: Int = 0,
                spliceMinimumBytes: Int = 64 * 1024, standaloneSpliceMinimumBytes: Int = 4 * 1024,
                tuning: DeflateTuning? = .keystroke) {
        self.level = level
        self.windowBits = windowBits
        self.memoryLevel = memoryLevel
        self.minimumBytes = minimumBytes
        self.spliceMinimumBytes = spliceMinimumBytes
        self.standaloneSpliceMinimumBytes = standaloneSpliceMinimumBytes
        self.tuning = level == 3 ? tuning : nil
    }

    /// Whether an `Accept-Encoding` value accepts gzip (an explicit `gzip` or `x-gzip` entry
    /// decides; otherwise `*`), with a non-zero quality.
    static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var wildcard: Bool?
        for entry in acceptEncoding.split(separator: ",") {
            let parts = entry.split(separator: ";")
            guard let name = parts.first?.trimmingSpaces.lowercased() else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
                    quality = Double(pair[1].trimmingSpaces) ?? 0
                }
            }
            if name == "gzip" || name == "x-gzip" { return quality > 0 }
            if name == "*" { wildcard = quality > 0 }
        }
        return wildcard ?? false
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}

extension Response {
    /// Marks an event stream to be sent gzip-compressed when the request accepts it and the
    /// server compresses streams (`Limits.eventStreamCompression`). Other responses, and event
    /// streams whose handler chose a `Content-Encoding`, are left as they are.
    mutating func negotiateEventStreamCompression(for request: Request, _ compression: EventStreamCompression?) {
        guard compression != nil, case .eventStream = body, headers["Content-Encoding"] == nil else { return }
        let vary = headers["Vary"]
        headers["Vary"] = vary.map { "\($0), Accept-Encoding" } ?? "Accept-Encoding"
        if EventStreamCompression.acceptsGzip(request.headers["Accept-Encoding"]) { headers["Content-Encoding"] = "gzip" }
    }
}
