import CZlib

/// How event streams are compressed for clients that accept it (`Accept-Encoding: gzip`; every
/// browser's `EventSource` sends it).
///
/// The stream is one gzip member, flushed (`Z_SYNC_FLUSH`) after every event, so each event
/// reaches the client whole, as soon as it is sent. Each stream keeps its own deflate state for
/// as long as it is open, so the window is small: with the defaults (a 1 KiB window,
/// `memoryLevel` 3) it costs about 14 KiB per stream, and a 100 KB event of identifiers shrinks
/// to about a quarter. Compressing costs about 8 ns per byte (zlib's level 1): with every event
/// compressed, a Mountains keystroke cost the server 1.4 ms of CPU instead of 0.9. So by default
/// only events of 60 KiB or more (`minimumBytes`) are compressed, the ones that would otherwise
/// pass 64 KB; smaller ones go out as stored blocks (a copy and a checksum, 5 bytes of framing).
/// Set `minimumBytes` to 0 to compress everything (less bandwidth, more CPU). A handler that sets
/// `Content-Encoding` itself (`identity`, say) is left alone.
public struct EventStreamCompression: Sendable, Hashable {
    /// zlib's level, 1 (fastest) to 9.
    public var level: Int
    /// The window is 2^windowBits bytes: 9 to 15.
    public var windowBits: Int
    /// zlib's `memLevel`, 1 to 9: the hash table and the block buffer grow with it.
    public var memoryLevel: Int
    /// Events (or comments) smaller than this are stored, not compressed; 0 compresses all.
    public var minimumBytes: Int

    public init(level: Int = 1, windowBits: Int = 10, memoryLevel: Int = 3, minimumBytes: Int = 60 * 1024) {
        self.level = level
        self.windowBits = windowBits
        self.memoryLevel = memoryLevel
        self.minimumBytes = minimumBytes
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

/// One stream's deflate state: bytes in, one gzip member out, flushed after every call.
/// Not thread-safe by itself: it lives in its `EventStream`'s `Mutex`-protected state and is
/// only used under that lock (`@unchecked Sendable` says so to the compiler, which cannot see
/// through the z_stream pointer).
final class GzipEncoder: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let level: Int32
    private let minimumBytes: Int
    /// The level deflate is set to now (it starts at `level`).
    private var currentLevel: Int32

    /// `nil` when zlib refuses the settings or has no memory.
    init?(_ settings: EventStreamCompression) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        level = Int32(clamping: settings.level)
        currentLevel = level
        minimumBytes = settings.minimumBytes
        guard czlib_deflate_init_gzip(stream, Int32(clamping: settings.level), Int32(clamping: settings.windowBits),
                                      Int32(clamping: settings.memoryLevel)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `bytes` and appends them to `output`, flushed so that the client can decode
    /// everything so far (`Z_SYNC_FLUSH`), or, with `finish`, followed by the gzip trailer.
    /// Returns `false` if zlib failed (the stream is then unusable).
    func compress(_ bytes: [UInt8], appendingTo output: inout [UInt8], finish: Bool = false) -> Bool {
        let flush = finish ? Z_FINISH : Z_SYNC_FLUSH
        if !finish && !setLevel(bytes.count >= minimumBytes ? level : 0, appendingTo: &output) { return false }
        return bytes.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            defer { stream.pointee.next_in = nil; stream.pointee.avail_in = 0 }
            // Until zlib leaves room in the output: then all input is consumed and flushed.
            var room = max(256, input.count / 2 + 64)
            while true {
                let start = output.count
                output.reserveCapacity(start + room)
                var result: Int32 = Z_OK
                var produced = 0
                output.append(contentsOf: repeatElement(0, count: room))
                output.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress! + start
                    stream.pointee.avail_out = UInt32(room)
                    result = deflate(stream, flush)
                    produced = room - Int(stream.pointee.avail_out)
                    stream.pointee.next_out = nil
                }
                output.removeLast(room - produced)
                if finish ? result == Z_STREAM_END : (result == Z_OK || result == Z_BUF_ERROR) && stream.pointee.avail_out > 0 { return true }
                guard result == Z_OK || result == Z_BUF_ERROR else { return false }
                room *= 2
            }
        }
    }

    /// Switches between compressing and storing. Everything before was flushed, so the block
    /// deflateParams ends is empty; the few bits it may write still go to `output`.
    private func setLevel(_ newLevel: Int32, appendingTo output: inout [UInt8]) -> Bool {
        guard newLevel != currentLevel else { return true }
        var scratch = [UInt8](repeating: 0, count: 64)
        let (result, produced) = scratch.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = UInt32(buffer.count)
            defer { stream.pointee.next_out = nil; stream.pointee.avail_out = 0 }
            let result = deflateParams(stream, newLevel, Z_DEFAULT_STRATEGY)
            return (result, buffer.count - Int(stream.pointee.avail_out))
        }
        output.append(contentsOf: scratch[0..<produced])
        guard result == Z_OK else { return false }
        currentLevel = newLevel
        return true
    }
}
