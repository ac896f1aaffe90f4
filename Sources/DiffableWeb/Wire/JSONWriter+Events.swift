// Parts that several events write the same way.
extension JSONWriter {
    /// `"details"`: the list's counters (``Demo/details(of:)``), omitted when it has none.
    mutating func details(_ text: String) {
        guard !text.isEmpty else { return }
        raw(",\"details\":"); string(text)
    }

    /// `"state"`: the demo's view state (``Demo/pageValues()``: a layout, a query, whether a
    /// publisher is paused), so that a page's controls show a change a script made. Omitted
    /// when the demo has none.
    mutating func viewState(_ values: [String: String]) {
        guard !values.isEmpty else { return }
        raw(",\"state\":{")
        for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { raw(",") }
            string(key); raw(":"); string(value)
        }
        raw("}")
    }

    /// `,"selection":{"items":[…],"editing":false,"multiple":true}` (and `"allowed":false` when a
    /// tap may not select now, `"followsFocus":true` when moving the focus selects), or nothing for
    /// a list without selection.
    mutating func selection(_ selection: ListSelection?) {
        guard let selection else { return }
        raw(",\"selection\":{\"items\":"); array(selection.items) { $0.string($1) }
        raw(",\"editing\":"); bool(selection.editing)
        raw(",\"multiple\":"); bool(selection.multiple)
        if !selection.allowed { raw(",\"allowed\":false") }
        if selection.followsFocus { raw(",\"followsFocus\":true") }
        raw("}")
    }

    /// `,"pinned":[{"id","edge","band":[minY,maxY]}]`: the window's pinned headers and footers,
    /// or nothing when it has none.
    mutating func pinned(_ pins: [WirePin]) {
        guard !pins.isEmpty else { return }
        raw(",\"pinned\":")
        array(pins) { w, pin in
            w.raw("{\"id\":"); w.string(pin.id)
            w.raw(",\"edge\":"); w.string(pin.edge)
            w.raw(",\"band\":["); w.number(pin.minY); w.raw(","); w.number(pin.maxY); w.raw("]}")
        }
    }

    /// `left`: held cells that left the window (with the parts of their new frame that changed), then
    /// those gone (id only).
    mutating func left(_ update: WindowUpdate) {
        raw("[")
        var first = true
        for move in update.left {
            if !first { raw(",") }
            first = false
            raw("{\"id\":"); string(move.id); raw(",\"frame\":"); frame(move.frame, from: move.from); raw("}")
        }
        for id in update.dropped {
            if !first { raw(",") }
            first = false
            raw("{\"id\":"); string(id); raw("}")
        }
        raw("]")
    }
}
