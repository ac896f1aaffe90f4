extension EventStream {
    /// `event:`/`id:` lines, one `data:` line per line of `data`, and the blank line that ends
    /// the event (https://html.spec.whatwg.org/multipage/server-sent-events.html).
    static func frame(event: String?, id: String?, data: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.utf8.count + 16 + (event?.utf8.count ?? 0) + (id?.utf8.count ?? 0))
        appendFields(event: event, id: id, to: &out)
        appendLines(data, prefix: "data: ", to: &out)
        out.append(10)
        return out
    }

    /// The frame of an event whose data is one line, around the shared bytes in its middle:
    /// `event:`/`id:` lines and `data: ` with `head`, then `tail`, the line's end and the
    /// blank line. `head` and `tail` have no line breaks (the caller checked).
    static func frame(event: String?, id: String?, head: String, tail: String) -> (head: [UInt8], tail: [UInt8]) {
        var out: [UInt8] = []
        out.reserveCapacity(head.utf8.count + 24 + (event?.utf8.count ?? 0) + (id?.utf8.count ?? 0))
        appendFields(event: event, id: id, to: &out)
        out.append(contentsOf: "data: ".utf8)
        out.append(contentsOf: head.utf8)
        var end: [UInt8] = []
        end.reserveCapacity(tail.utf8.count + 2)
        end.append(contentsOf: tail.utf8)
        end.append(contentsOf: [10, 10])
        return (out, end)
    }

    /// `: text` (one comment line per line of `text`) and a blank line.
    static func frameComment(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 4)
        appendLines(text, prefix: ": ", to: &out)
        out.append(10)
        return out
    }

    /// `text` as lines, each behind `prefix`; CR, LF and CRLF all end a line. Runs between
    /// line breaks are copied whole (a megabyte event with no line break is one copy).
    private static func appendLines(_ text: String, prefix: String, to out: inout [UInt8]) {
        out.append(contentsOf: prefix.utf8)
        var text = text
        text.withUTF8 { bytes in
            var start = 0, index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                guard byte == 10 || byte == 13 else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                out.append(10)
                out.append(contentsOf: prefix.utf8)
                // CRLF is one line break.
                index += (byte == 13 && index + 1 < count && bytes[index + 1] == 10) ? 2 : 1
                start = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
        }
        out.append(10)
    }

    /// The `event:` and `id:` lines (line breaks removed, and NUL from the id).
    private static func appendFields(event: String?, id: String?, to out: inout [UInt8]) {
        if let event {
            out.append(contentsOf: "event: ".utf8)
            appendSingleLine(event, to: &out, droppingNUL: false)
            out.append(10)
        }
        if let id {
            out.append(contentsOf: "id: ".utf8)
            appendSingleLine(id, to: &out, droppingNUL: true)
            out.append(10)
        }
    }

    private static func appendSingleLine(_ text: String, to out: inout [UInt8], droppingNUL: Bool) {
        for c in text.utf8 where c != 10 && c != 13 && !(droppingNUL && c == 0) {
            out.append(c)
        }
    }
}
