import CZlib
import Synchronization

/// Bytes that the events of many streams carry verbatim, prepared once: checked for line
/// breaks, their CRC-32 taken, and, the first time a compressed stream sends them, deflated.
///
/// An event sent to a thousand streams (or the same change made in a thousand sessions) then
/// costs each stream a copy: a gzip stream splices the deflated bytes into its own member
/// (`EventStream.send(event:id:data:)` with an `EventData`) instead of compressing them again.
public final class SharedEventBytes: Sendable {
    public let bytes: [UInt8]
    /// CRC-32 of `bytes`, for the gzip trailer of the streams that splice them.
    let crc: UInt32
    /// Whether `bytes` contain CR or LF (then they cannot sit inside one `data:` line).
    let hasLineBreaks: Bool
    /// Whether the bytes owe little to what a stream sent before them (an event's list of
    /// identifiers): a gzip stream splices them from a smaller size
    /// (`EventStreamCompression.standaloneSpliceMinimumBytes`), where compressing them against
    /// the stream's history would cost each stream its own deflate for no fewer bytes.
    public let standsAlone: Bool
    /// Raw deflate of `bytes` on a fresh dictionary, ending on a byte boundary (`Z_SYNC_FLUSH`);
    /// made on first use (at level 4: once for every stream that splices it, so it may cost
    /// more than a stream's own level). `nil` inside: not made yet; an empty array: zlib failed.
    private let deflated = Mutex<[UInt8]?>(nil)

    public init(_ bytes: [UInt8], standsAlone: Bool = false) {
        self.bytes = bytes
        self.standsAlone = standsAlone
        crc = bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32_z(0, $0.baseAddress, $0.count)) }
        hasLineBreaks = bytes.contains { $0 == 10 || $0 == 13 }
    }

    public convenience init(_ text: String, standsAlone: Bool = false) { self.init(Array(text.utf8), standsAlone: standsAlone) }

    public var count: Int { bytes.count }

    /// The deflated form (made once, under a lock so that concurrent streams do not repeat it),
    /// or `nil` when zlib failed.
    func deflatedForm() -> [UInt8]? {
        let form = deflated.withLock { form -> [UInt8] in
            if let form { return form }
            let made = GzipEncoder.deflateAlone(bytes) ?? []
            form = made
            return made
        }
        return form.isEmpty && !bytes.isEmpty ? nil : form
    }
}

/// An event's `data` in parts: its own text around bytes it shares with other events.
///
/// The parts make one line (`data: <head><shared…><tail>`), which is what JSON written without
/// line breaks is. Parts with line breaks are framed as any text is: one `data:` line per line.
public struct EventData: Sendable {
    public var head: String
    /// Shared bytes, in order, between `head` and `tail`.
    public var shared: [SharedEventBytes]
    public var tail: String

    public init(head: String, shared: [SharedEventBytes] = [], tail: String = "") {
        self.head = head
        self.shared = shared
        self.tail = tail
    }

    public init(_ text: String) { self.init(head: text) }

    /// The whole text (a copy of the shared bytes).
    public var text: String {
        guard !shared.isEmpty else { return head + tail }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        bytes.append(contentsOf: head.utf8)
        for part in shared { bytes.append(contentsOf: part.bytes) }
        bytes.append(contentsOf: tail.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The number of bytes of the whole text.
    public var byteCount: Int { shared.reduce(head.utf8.count + tail.utf8.count) { $0 + $1.count } }
}
