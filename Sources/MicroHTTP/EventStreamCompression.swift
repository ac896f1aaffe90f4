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
///
/// zlib runs as raw deflate and the gzip header and trailer (CRC-32, length) are written here,
/// so that blocks deflated once for many streams (``SharedEventBytes``) can be spliced in: after
/// a sync flush the member is on a byte boundary, the spliced blocks reference nothing before
/// them, the CRCs combine (`crc32_combine`), and the compressor's dictionary is set to the end
/// of the spliced bytes, which is what the client's window holds then.
final class GzipEncoder: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let level: Int32
    /// Events (or parts of one) smaller than this are stored, not compressed.
    let minimumBytes: Int
    /// The compressor's window: what its matches may reach back.
    private let windowSize: Int
    /// The level deflate is set to now (it starts at `level`).
    private var currentLevel: Int32
    private var crc: UInt = 0
    private var length: UInt32 = 0
    private var headerWritten = false

    /// `nil` when zlib refuses the settings or has no memory.
    init?(_ settings: EventStreamCompression) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        level = Int32(clamping: settings.level)
        currentLevel = level
        minimumBytes = settings.minimumBytes
        windowSize = 1 << min(15, max(9, settings.windowBits))
        guard czlib_deflate_init_raw(stream, Int32(clamping: settings.level), Int32(clamping: settings.windowBits),
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
        bytes.withUnsafeBufferPointer { compress($0, appendingTo: &output, finish: finish) }
    }

    func compress(_ input: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8], finish: Bool = false) -> Bool {
        writeHeader(to: &output)
        let flush = finish ? Z_FINISH : Z_SYNC_FLUSH
        if !finish && !setLevel(input.count >= minimumBytes ? level : 0, appendingTo: &output) { return false }
        crc = crc32_z(crc, input.baseAddress, input.count)
        length &+= UInt32(truncatingIfNeeded: input.count)
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
            if finish ? result == Z_STREAM_END : (result == Z_OK || result == Z_BUF_ERROR) && stream.pointee.avail_out > 0 {
                if finish { writeTrailer(to: &output) }
                return true
            }
            guard result == Z_OK || result == Z_BUF_ERROR else { return false }
            room *= 2
        }
    }

    /// Appends `shared.bytes` as if they had been compressed here: the blocks deflated once
    /// (`deflated`), or stored blocks written here (a copy and 5 bytes per 64 KiB). Call only
    /// after ``compress(_:appendingTo:finish:)``, which ends on a flushed byte boundary. Returns
    /// `false` if zlib failed.
    func splice(_ shared: SharedEventBytes, deflated: Bool, appendingTo output: inout [UInt8]) -> Bool {
        guard shared.count > 0 else { return true }
        writeHeader(to: &output)
        if deflated {
            guard let blocks = shared.deflatedForm() else { return false }
            output.append(contentsOf: blocks)
        } else {
            // Stored blocks (RFC 1951 3.2.4): on a byte boundary a non-final stored block's
            // header is one zero byte, then LEN and its complement, little-endian.
            var start = 0
            while start < shared.count {
                let length = min(65_535, shared.count - start)
                let lengthBits = UInt16(length), complement = ~UInt16(length)
                output.append(contentsOf: [0, UInt8(lengthBits & 0xFF), UInt8(lengthBits >> 8), UInt8(complement & 0xFF), UInt8(complement >> 8)])
                output.append(contentsOf: shared.bytes[start..<(start + length)])
                start += length
            }
        }
        crc = crc32_combine(crc, UInt(shared.crc), shared.count)
        length &+= UInt32(truncatingIfNeeded: shared.count)
        // The client's window now ends with the spliced bytes; so must this compressor's, or
        // its next match would point at bytes the client does not have there.
        return shared.bytes.suffix(windowSize).withUnsafeBufferPointer { dictionary in
            deflateSetDictionary(stream, dictionary.baseAddress, UInt32(dictionary.count)) == Z_OK
        }
    }

    /// `bytes` as raw deflate on a fresh dictionary (a 32 KiB window: decoders of gzip keep
    /// one), ending on a byte boundary: blocks any stream can splice. `nil` if zlib failed.
    static func deflateAlone(_ bytes: [UInt8]) -> [UInt8]? {
        guard let encoder = GzipEncoder(EventStreamCompression(level: 1, windowBits: 15, memoryLevel: 8, minimumBytes: 0)) else { return nil }
        encoder.headerWritten = true
        var output: [UInt8] = []
        return encoder.compress(bytes, appendingTo: &output) ? output : nil
    }

    /// The gzip header (RFC 1952): deflate, no name, no time, Unix.
    private func writeHeader(to output: inout [UInt8]) {
        guard !headerWritten else { return }
        headerWritten = true
        output.append(contentsOf: [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
    }

    /// CRC-32 and length mod 2^32 of everything compressed, little-endian.
    private func writeTrailer(to output: inout [UInt8]) {
        let checksum = UInt32(truncatingIfNeeded: crc)
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
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
