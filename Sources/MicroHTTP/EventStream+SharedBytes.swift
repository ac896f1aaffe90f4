// Events made of parts that many streams share (`EventData`): framed around them, sent from
// where they are, and, on a gzip stream, spliced or compressed part by part.
extension EventStream {
    /// Queues one event whose data is `head`, the shared bytes and `tail` on one line. The
    /// shared bytes are never scanned or checksummed again: a gzip stream compresses the small
    /// ones against what it sent before, and splices those of
    /// `EventStreamCompression.spliceMinimumBytes` or more (`standaloneSpliceMinimumBytes` for
    /// bytes that stand alone) as the blocks ``SharedEventBytes`` deflated once (stored blocks
    /// in an event under `minimumBytes`). Data with line breaks is framed like text, a `data:`
    /// line per line. Returns `false` when the stream is no longer open.
    /// - Complexity: O(size of `head` and `tail`) plus, on a plain stream, a copy of the shared
    ///   bytes only when they must wait (an idle stream's socket takes them from where they are,
    ///   ``sendDirect(_:_:size:)``); a gzip stream compresses the small ones and copies the
    ///   spliced ones into its member.
    @discardableResult
    public func send(event: String? = nil, id: String? = nil, data: EventData) -> Bool {
        guard !data.shared.contains(where: \.hasLineBreaks), !Self.hasLineBreak(data.head), !Self.hasLineBreak(data.tail) else {
            return send(event: event, id: id, data: data.text)
        }
        let (head, tail) = EventStream.frame(event: event, id: id, head: data.head, tail: data.tail)
        let size = data.shared.reduce(head.count + tail.count) { $0 + $1.count }
        return enqueue(size: size, event: event, plain: [head] + data.shared.map(\.bytes) + [tail]) { pending, encoder in
            // As for any event: compressed when the whole is at least `minimumBytes`. Shared
            // parts of `spliceMinimumBytes` or more are spliced (deflated once for every
            // stream); the rest is compressed here, against what this stream sent before, and
            // flushed once, at the end of the event (or before a splice).
            let compressing = size >= encoder.minimumBytes
            var flushed = true
            func add(_ bytes: UnsafeBufferPointer<UInt8>, flush: Bool) -> Bool {
                flushed = flush
                return encoder.compress(bytes, appendingTo: &pending, flush: flush, compressing: compressing)
            }
            guard head.withUnsafeBufferPointer({ add($0, flush: false) }) else { return false }
            for part in data.shared {
                if encoder.splices(part) {
                    if !flushed && !add(UnsafeBufferPointer(start: nil, count: 0), flush: true) { return false }
                    guard encoder.splice(part, deflated: compressing, appendingTo: &pending) else { return false }
                } else {
                    // Its CRC-32 is known: combined, not computed again.
                    flushed = false
                    guard part.bytes.withUnsafeBufferPointer({
                        encoder.compress($0, appendingTo: &pending, flush: false, compressing: compressing, crc: part.crc)
                    }) else { return false }
                }
            }
            return tail.withUnsafeBufferPointer { add($0, flush: true) }
        }
    }

    private static func hasLineBreak(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Over raw bytes: `utf8.contains(where:)` was 7% of a keystroke's server time.
            for byte in bytes where byte == 10 || byte == 13 { return true }
            return false
        }
    }
}
