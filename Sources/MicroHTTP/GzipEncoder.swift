import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One stream's deflate state: bytes in, one gzip member out, flushed after every event.
/// Not thread-safe by itself: it lives in its `EventStream`'s `Mutex`-protected state and is
/// only used under that lock (`@unchecked Sendable` says so to the compiler, which cannot see
/// through the z_stream pointer).
///
/// zlib runs as raw deflate and the gzip header and trailer (CRC-32, length) are written here,
/// so that blocks deflated once for many streams (``SharedEventBytes``) can be spliced in: after
/// a sync flush the member is on a byte boundary, the spliced blocks reference nothing before
/// them, the CRCs combine (`crc32_combine`), and the compressor starts afresh (`deflateReset`),
/// so that nothing it sends later reaches back into bytes it did not see.
///
/// The zlib state (window, hash chains, block buffer) exists only while the stream is active:
/// ``heartbeat(_:appendingTo:)`` on a stream that sent nothing since the previous heartbeat
/// frees it, and the next event allocates a fresh one. A fresh compressor references nothing
/// before it, so the member stays valid (the client's window simply goes unused once).
final class GzipEncoder: @unchecked Sendable {
    private let level: Int32
    /// Applied whenever deflate is (re)set to `level`: a reset or a level switch forgets it.
    private let tuning: DeflateTuning?
    private let windowBits: Int32
    private let memoryLevel: Int32
    /// Events (or parts of one) smaller than this are stored, not compressed.
    let minimumBytes: Int
    /// Shared parts at least this large are spliced (deflated once), not compressed here.
    let spliceMinimumBytes: Int
    /// The same for shared parts that stand alone (`SharedEventBytes.standsAlone`).
    let standaloneSpliceMinimumBytes: Int
    /// Whether `stream` holds a live deflate state (freed while the stream is idle).
    var isActive: Bool { arena != nil }
    /// The mapping zlib's state lives in while active (see ``DeflateArena``).
    private var arena: DeflateArena?
    /// The level deflate is set to now (it starts at `level`).
    private var currentLevel: Int32
    /// Something other than a heartbeat was sent since the last heartbeat.
    private var usedSinceHeartbeat = true
    private var crc: UInt = 0
    private var length: UInt32 = 0
    /// `length` when the deflate state was last set up.
    private var lengthAtActivation: UInt32 = 0
    private var headerWritten = false

    /// `nil` when zlib refuses the settings or has no memory.
    init?(_ settings: EventStreamCompression) {
        level = Int32(clamping: settings.level)
        tuning = settings.tuning
        windowBits = Int32(clamping: settings.windowBits)
        memoryLevel = Int32(clamping: settings.memoryLevel)
        currentLevel = level
        minimumBytes = settings.minimumBytes
        spliceMinimumBytes = settings.spliceMinimumBytes
        standaloneSpliceMinimumBytes = settings.standaloneSpliceMinimumBytes
        guard activate() else { return nil }
    }

    deinit {
        release()
    }

    /// zlib's stream record: in the arena, so an idle stream's encoder holds no zlib memory at
    /// all. `nil` while the state is freed.
    private var stream: UnsafeMutablePointer<z_stream>? { arena?.stream }

    /// Sets up the deflate state if it was freed (or never made). `false`: zlib refused.
    private func activate() -> Bool {
        guard !isActive else { return true }
        guard let arena = DeflateArena(windowBits: Int(windowBits), memoryLevel: Int(memoryLevel)) else { return false }
        arena.install()
        guard czlib_deflate_init_raw(arena.stream, level, windowBits, memoryLevel) == Z_OK, tune(arena.stream) else {
            arena.unmap()
            return false
        }
        self.arena = arena
        currentLevel = level
        lengthAtActivation = length
        return true
    }

    /// The memory the deflate state costs the process now, roughly: 0 while freed; else the
    /// pages zlib touches, which grow with what goes through it (the state and the hash heads
    /// at once, the window and the hash chains as input fills them), at most the mapping
    /// (~150 KiB). Counted from 48 KiB, which a fresh stream reaches with its first event (a
    /// stream is admitted before its first event: a burst of fresh streams must count then).
    var stateBytes: Int {
        guard let arena else { return 0 }
        let consumed = Int(length &- lengthAtActivation)
        return min(arena.size, 48 * 1024 + consumed)
    }

    /// Frees the deflate state (the member's CRC, length and position are kept). Call only on
    /// a flushed byte boundary (after a `compress` that flushed).
    func release() {
        guard let stream else { return }
        deflateEnd(stream)
        arena?.unmap()
        arena = nil
    }

    /// Compresses `bytes` and appends them to `output`, flushed so that the client can decode
    /// everything so far (`Z_SYNC_FLUSH`), or, with `finish`, followed by the gzip trailer.
    /// Returns `false` if zlib failed (the stream is then unusable).
    func compress(_ bytes: [UInt8], appendingTo output: inout [UInt8], finish: Bool = false) -> Bool {
        bytes.withUnsafeBufferPointer { compress($0, appendingTo: &output, finish: finish) }
    }

    /// With `flush` false, the bytes are taken but may stay in the compressor: a later call
    /// with `flush` (the end of the event) sends them. `compressing` overrides the choice by
    /// size (`minimumBytes`), for the parts of one event. `crc`: the input's CRC-32 when it is
    /// known (``SharedEventBytes``), combined with the member's rather than computed again.
    func compress(_ input: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8], finish: Bool = false,
                  flush: Bool = true, compressing: Bool? = nil, crc known: UInt32? = nil) -> Bool {
        writeHeader(to: &output)
        if finish && !isActive {
            // A final empty stored block (BFINAL 1, BTYPE 00, LEN 0, NLEN 0xFFFF), then the trailer.
            if input.count > 0 { appendStored(input, to: &output) }
            output.append(contentsOf: [1, 0, 0, 0xFF, 0xFF])
            writeTrailer(to: &output)
            return true
        }
        usedSinceHeartbeat = true
        guard activate(), let stream else { return false }
        let mode = finish ? Z_FINISH : flush ? Z_SYNC_FLUSH : Z_NO_FLUSH
        if !finish && !setLevel((compressing ?? (input.count >= minimumBytes)) ? level : 0, appendingTo: &output) { return false }
        if let known {
            crc = crc32_combine(crc, UInt(known), input.count)
        } else {
            crc = crc32_z(crc, input.baseAddress, input.count)
        }
        length &+= UInt32(truncatingIfNeeded: input.count)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.pointee.avail_in = UInt32(input.count)
        // (The record is gone once a finished member released the state.)
        defer { if isActive { stream.pointee.next_in = nil; stream.pointee.avail_in = 0 } }
        // Until zlib leaves room in the output: then all input is consumed (and flushed).
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
                result = deflate(stream, mode)
                produced = room - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
            }
            output.removeLast(room - produced)
            if finish ? result == Z_STREAM_END : (result == Z_OK || result == Z_BUF_ERROR) && stream.pointee.avail_out > 0 {
                if finish {
                    writeTrailer(to: &output)
                    release()
                }
                return true
            }
            guard result == Z_OK || result == Z_BUF_ERROR else { return false }
            room *= 2
        }
    }

    /// A heartbeat comment: on a stream that sent nothing since the previous heartbeat the
    /// deflate state is freed and the comment goes out stored (no zlib at all); otherwise it is
    /// compressed like any event. Returns `false` if zlib failed.
    func heartbeat(_ bytes: [UInt8], appendingTo output: inout [UInt8]) -> Bool {
        guard usedSinceHeartbeat else {
            writeHeader(to: &output)
            release()
            bytes.withUnsafeBufferPointer { appendStored($0, to: &output) }
            return true
        }
        let ok = compress(bytes, appendingTo: &output)
        usedSinceHeartbeat = false
        return ok
    }

    /// Whether `shared` is spliced (deflated once for every stream) rather than compressed here.
    func splices(_ shared: SharedEventBytes) -> Bool {
        shared.count >= (shared.standsAlone ? min(standaloneSpliceMinimumBytes, spliceMinimumBytes) : spliceMinimumBytes)
    }

    /// Appends `shared.bytes` as if they had been compressed here: the blocks deflated once
    /// (`deflated`), or stored blocks written here (a copy and 5 bytes per 64 KiB). Call only
    /// on a flushed byte boundary (after ``compress(_:appendingTo:finish:flush:compressing:)``
    /// with `flush`). Returns `false` if zlib failed.
    func splice(_ shared: SharedEventBytes, deflated: Bool, appendingTo output: inout [UInt8]) -> Bool {
        guard shared.count > 0 else { return true }
        writeHeader(to: &output)
        usedSinceHeartbeat = true
        if deflated {
            guard let blocks = shared.deflatedForm() else { return false }
            output.append(contentsOf: blocks)
            crc = crc32_combine(crc, UInt(shared.crc), shared.count)
            length &+= UInt32(truncatingIfNeeded: shared.count)
        } else {
            shared.bytes.withUnsafeBufferPointer { appendStored($0, to: &output) }
        }
        // The client's window now ends with the spliced bytes, which this compressor never
        // saw: its next match must not reach back past them. It starts afresh (a freed state has
        // no history to disagree with). Loading the spliced bytes as its dictionary instead
        // (`deflateSetDictionary`) hashed up to 32 KiB per stream and splice, for no fewer bytes
        // on the keystroke benchmarks: what follows a splice (a window's cells) matches the
        // cells of earlier events, not the identifiers spliced before it.
        guard let stream else { return true }
        return deflateReset(stream) == Z_OK && (currentLevel != level || tune(stream))
    }

    /// Sets the match search at `level` (a fresh state, a reset and a switch to `level` each
    /// take the level's own). `false`: zlib refused.
    private func tune(_ stream: UnsafeMutablePointer<z_stream>) -> Bool {
        guard let tuning else { return true }
        return deflateTune(stream, Int32(clamping: tuning.goodLength), Int32(clamping: tuning.maxLazy),
                           Int32(clamping: tuning.niceLength), Int32(clamping: tuning.maxChain)) == Z_OK
    }

    /// Stored blocks (RFC 1951 3.2.4) written here, counted in the CRC and length: on a byte
    /// boundary a non-final stored block's header is one zero byte, then LEN and its
    /// complement, little-endian. The deflate state, if any, is not told (callers either set
    /// its dictionary or have freed it).
    private func appendStored(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var start = 0
        while start < bytes.count {
            let count = min(65_535, bytes.count - start)
            let lengthBits = UInt16(count), complement = ~UInt16(count)
            output.append(contentsOf: [0, UInt8(lengthBits & 0xFF), UInt8(lengthBits >> 8), UInt8(complement & 0xFF), UInt8(complement >> 8)])
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]))
            start += count
        }
        crc = crc32_z(crc, bytes.baseAddress, bytes.count)
        length &+= UInt32(truncatingIfNeeded: bytes.count)
    }

    /// `bytes` as raw deflate on a fresh dictionary (a 32 KiB window: decoders of gzip keep
    /// one), ending on a byte boundary: blocks any stream can splice. `nil` if zlib failed.
    /// Level 4: made once for every stream (and every session making the same step), so worth
    /// more effort than a stream's own; on a search's identifiers (16–80 KB) it gives 9% fewer
    /// bytes than level 1 for 1.4× the time (0.75 ms for 70 KB), where level 6 gives no fewer
    /// and takes 4×.
    static func deflateAlone(_ bytes: [UInt8]) -> [UInt8]? {
        guard let encoder = GzipEncoder(EventStreamCompression(level: 4, windowBits: 15, memoryLevel: 8, minimumBytes: 0)) else { return nil }
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
        guard let stream else { return false }
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
        return newLevel != level || tune(stream)
    }
}
