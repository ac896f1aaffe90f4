import CompositionalLayout
/// A small, fast JSON writer for the wire events. Foundation's `JSONEncoder` spent most of a
/// keystroke's time on events with thousands of moved frames; these shapes are fixed and
/// simple, so they are written directly into a byte buffer.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A JSON string, escaped per RFC 8259 (quote, backslash, control characters). `<` is
    /// escaped too, so an event can never close a `<script>` if someone inlines it in a page.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0, index = 0
            let count = utf8.count
            while index < count {
                let byte = utf8[index]
                // Most bytes need no escape: skip them with one comparison chain, copy runs whole.
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                switch byte {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
                index += 1
                start = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    /// The decimal digits of `value`, without allocating a string.
    private mutating func digits(_ value: UInt) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var value = value, start = 20
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            } while value > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
        }
    }

    /// A number as JSON: integral values without a fraction, hundredths (what frames are
    /// rounded to) as fixed point, others as Swift's shortest round-tripping form.
    mutating func number(_ value: Double) {
        guard value.isFinite else { raw("0"); return }
        if value == value.rounded(), abs(value) < 9e15 {  // integral, and exact as an Int
            int(Int(value))
            return
        }
        let scaled = value * 100
        let hundredths = scaled.rounded()
        guard abs(hundredths) < 9e15, abs(scaled - hundredths) < 1e-7 else {
            bytes.append(contentsOf: value.description.utf8)
            return
        }
        let whole = Int(hundredths)
        if whole < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = whole.magnitude
        digits(magnitude / 100)
        let fraction = magnitude % 100
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 10))
            if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)) }
        }
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    mutating func frame(_ frame: WireFrame) {
        raw("{\"x\":"); number(frame.x)
        raw(",\"y\":"); number(frame.y)
        raw(",\"w\":"); number(frame.w)
        raw(",\"h\":"); number(frame.h)
        raw("}")
    }

    /// A held cell's frame as a change of the frame the client holds (`from`): only the parts
    /// that differ (`{"y":64}`; `{}` when none do). The client merges it with its own.
    mutating func frame(_ frame: WireFrame, from held: WireFrame) {
        raw("{")
        var first = true
        if frame.x != held.x { raw("\"x\":"); number(frame.x); first = false }
        if frame.y != held.y { if !first { raw(",") }; raw("\"y\":"); number(frame.y); first = false }
        if frame.w != held.w { if !first { raw(",") }; raw("\"w\":"); number(frame.w); first = false }
        if frame.h != held.h { if !first { raw(",") }; raw("\"h\":"); number(frame.h) }
        raw("}")
    }

    mutating func size(_ size: WireSize) {
        raw("{\"w\":"); number(size.w)
        raw(",\"h\":"); number(size.h)
        raw("}")
    }

    /// `,"orthogonal":[{"section","x","y","h","w","behavior"}]` (x: the leading inset), or nothing for a layout without
    /// orthogonal sections.
    mutating func orthogonal(_ sections: [ListLayout.OrthogonalSection]) {
        guard !sections.isEmpty else { return }
        raw(",\"orthogonal\":")
        array(sections) { w, section in
            w.raw("{\"section\":"); w.string(section.id)
            w.raw(",\"x\":"); w.number(WireFrame.round(section.frame.x))
            w.raw(",\"y\":"); w.number(WireFrame.round(section.frame.y))
            w.raw(",\"h\":"); w.number(WireFrame.round(section.frame.height))
            w.raw(",\"w\":"); w.number(WireFrame.round(section.contentWidth))
            w.raw(",\"behavior\":"); w.string(section.behavior.wireName)
            w.raw("}")
        }
    }

    mutating func cell(_ cell: WireCell) {
        raw("{\"id\":"); string(cell.id)
        raw(",\"kind\":"); string(cell.kind.name)
        if let decoration = cell.kind.decorationKind { raw(",\"decoration\":"); string(decoration) }
        raw(",\"section\":"); string(cell.section)
        // No index: the client keeps every identifier in order (a cell's position is known).
        raw(",\"frame\":"); frame(cell.frame)
        if cell.fits { raw(",\"fit\":1") }
        raw(",\"html\":"); string(cell.html)
        raw("}")
    }

    mutating func array<T>(_ values: [T], _ write: (inout JSONWriter, T) -> Void) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(",") }
            write(&self, value)
        }
        raw("]")
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension OrthogonalScrollingBehavior {
    /// The name on the wire (UIKit's case name).
    var wireName: String {
        switch self {
        case .none: "none"
        case .continuous: "continuous"
        case .continuousGroupLeadingBoundary: "continuousGroupLeadingBoundary"
        case .paging: "paging"
        case .groupPaging: "groupPaging"
        case .groupPagingCentered: "groupPagingCentered"
        }
    }
}
