/// A `window` event's JSON (docs/protocol.md): what entered and left a stream's window when it
/// moved, or the window afresh after a replay (`reset`).
enum WindowEvent {
    static func json(version: Int, streamID: String, window: StreamWindow, layout: ListLayout, update: WindowUpdate, reset: Bool,
                     measured: Bool = false) -> String {
        var writer = JSONWriter(capacity: 96 + update.cells.count * 160)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"stream\":"); writer.string(streamID)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.raw(",\"top\":"); writer.number(window.top)
        writer.raw(",\"reset\":"); writer.bool(reset)
        if measured { writer.raw(",\"measured\":true") }
        writer.orthogonal(layout.orthogonalSections)
        writer.pinned(update.pinned)
        writer.raw(",\"cells\":"); writer.windowCells(update.cells)
        writer.raw(",\"left\":"); writer.left(update)
        writer.raw("}")
        return writer.text
    }
}
