extension EventStream {
    /// `event:`/`id:` lines, one `data:` line per line of `data`, and the blank line that ends
    /// the event (https://html.spec.whatwg.org/multipage/server-sent-events.html).
    static func frame(event: String?, id: String?, data: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.utf8.count + 16 + (event?.utf8.count ?? 0) + (id?.utf8.count ?? 0))
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
        appendLines(data, prefix: "data: ", to: &out)
        out.append(10)
        return out
    }

    /// `: text` (one comment line per line of `text`) and a blank line.
    static func frameComment(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 4)
        appendLines(text, prefix: ": ", to: &out)
        out.append(10)
        return out
    }

    private static func appendLines(_ text: String, prefix: String, to out: inout [UInt8]) {
        out.append(contentsOf: prefix.utf8)
        var afterCR = false
        for c in text.utf8 {
            switch c {
            case 13:
                out.append(10)
                out.append(contentsOf: prefix.utf8)
                afterCR = true
            case 10:
                if !afterCR {
                    out.append(10)
                    out.append(contentsOf: prefix.utf8)
                }
                afterCR = false
            default:
                out.append(c)
                afterCR = false
            }
        }
        out.append(10)
    }

    private static func appendSingleLine(_ text: String, to out: inout [UInt8], droppingNUL: Bool) {
        for c in text.utf8 where c != 10 && c != 13 && !(droppingNUL && c == 0) {
            out.append(c)
        }
    }
}
