import CompositionalLayout
import Foundation

// The JSON shapes of docs/protocol.md. Kept as plain Codable structs so the document and
// the code can be read side by side.

/// A frame in CSS pixels, rounded to hundredths to keep payloads small.
struct WireFrame: Codable, Equatable, Sendable {
    var x: Double, y: Double, w: Double, h: Double

    init(_ rect: LayoutRect) {
        x = Self.round(rect.x); y = Self.round(rect.y)
        w = Self.round(rect.width); h = Self.round(rect.height)
    }

    static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// `x,y,w,h` for the `data-frame` attribute of server-rendered cells.
    var attribute: String { "\(Self.text(x)),\(Self.text(y)),\(Self.text(w)),\(Self.text(h))" }

    static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

struct WireSize: Codable, Equatable, Sendable {
    var w: Double, h: Double
    init(_ size: LayoutPixelSize) { w = WireFrame.round(size.width); h = WireFrame.round(size.height) }
}

/// A cell as the client creates it.
struct WireCell: Codable, Equatable, Sendable {
    var id: String
    var kind: CellKind
    var section: String
    var index: Int?
    var frame: WireFrame
    var html: String
    /// For a pinned header or footer: how it sticks (written in the event's `pinned`, not in the cell).
    var pin: WirePin? = nil
    /// It sizes itself: the browser lets it take its content's height and reports that height.
    var fits = false
}

/// A pinned header or footer of a window (`pinned` in docs/protocol.md): the edge it sticks to
/// and its section's vertical band.
struct WirePin: Codable, Equatable, Sendable {
    var id: String
    var edge: String
    var minY: Double, maxY: Double

    init(id: String, _ pin: ListLayout.Pin) {
        self.id = id
        edge = pin.edge.rawValue
        minY = WireFrame.round(pin.minY); maxY = WireFrame.round(pin.maxY)
    }
}

/// A held cell that left the window: its new frame, and the frame the client holds (`from`), so
/// that only the parts that changed are sent.
struct WireMove: Codable, Equatable, Sendable {
    var id: String
    var frame: WireFrame
    var from: WireFrame
}

struct WireUpdate: Codable, Equatable, Sendable {
    var id: String
    var html: String
    var reload: Bool
}
