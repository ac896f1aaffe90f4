import CompositionalLayout

/// What a stream's client must be told about its window after a change (or a move of the
/// window): the cells new to it, with their HTML; the cells it holds at another frame; the cells
/// it holds that left the window; the contents that changed under cells it keeps.
///
/// Built from the cells the client holds (id → frame) and the layout's cells in the window, so it
/// costs one screen whatever the list's length.
struct WindowUpdate: Sendable {
    /// A cell of the window: new to the client (with HTML), or held at another frame (`from`:
    /// the frame the client holds, so that only the parts that changed are sent).
    enum Cell: Sendable, Equatable {
        case entered(WireCell)
        case moved(id: String, frame: WireFrame, from: WireFrame)
    }

    var cells: [Cell] = []
    /// Held cells outside the window now that are still in the list, with their new frame.
    var left: [WireMove] = []
    /// Held ids that are gone without a word from the changeset (a window `reset` lists none).
    var dropped: [String] = []
    /// New content of held cells: reconfigured (in place) or reloaded (a new element).
    var updated: [WireUpdate] = []
    /// What the client holds afterwards.
    var held: [String: WireFrame] = [:]
    /// The pinned headers and footers of the window, in document order (stated afresh each time:
    /// an insert can move a section's end without moving its header).
    var pinned: [WirePin] = []

    /// - Parameters:
    ///   - layout: the list as it is now, laid out for the stream's viewport.
    ///   - rect: the stream's window.
    ///   - held: what the client holds (id → frame) before.
    ///   - isDeleted: ids the changeset deletes (the client removes those itself).
    ///   - contentChange: for a held id, whether its content changed: `false` reconfigured, `true`
    ///     reloaded, `nil` unchanged.
    ///   - html: a cell's inner HTML (cached by the renderer).
    init(layout: ListLayout, rect: LayoutRect, held: [String: WireFrame],
         isDeleted: (String) -> Bool = { _ in false }, contentChange: (String) -> Bool? = { _ in nil },
         html: (ListLayout.Cell) -> String) {
        let now = layout.cells(in: rect)
        self.held.reserveCapacity(now.count)
        for cell in now {
            let frame = WireFrame(cell.frame)
            self.held[cell.id] = frame
            if let pin = cell.pin { pinned.append(WirePin(id: cell.id, pin)) }
            guard let before = held[cell.id] else {
                cells.append(.entered(WireCell(id: cell.id, kind: cell.kind, section: cell.section, index: cell.index,
                                               frame: frame, html: html(cell), fits: cell.fits)))
                continue
            }
            if before != frame { cells.append(.moved(id: cell.id, frame: frame, from: before)) }
            if let reload = contentChange(cell.id) {
                updated.append(WireUpdate(id: cell.id, html: html(cell), reload: reload))
            }
        }
        for (id, before) in held where self.held[id] == nil && !isDeleted(id) {
            if let cell = layout.cell(id) {
                left.append(WireMove(id: id, frame: WireFrame(cell.frame), from: before))
            } else {
                dropped.append(id)
            }
        }
        left.sort { $0.id < $1.id }
        dropped.sort()
    }

    /// A hash of what the client holds: streams with the same viewport and the same signature
    /// get the same bytes.
    static func signature(of held: [String: WireFrame]) -> Int {
        var combined = 0
        for (id, frame) in held {
            var hasher = Hasher()
            hasher.combine(id)
            hasher.combine(frame.x); hasher.combine(frame.y); hasher.combine(frame.w); hasher.combine(frame.h)
            combined ^= hasher.finalize()
        }
        return combined ^ held.count
    }
}

extension JSONWriter {
    mutating func windowCells(_ cells: [WindowUpdate.Cell]) {
        array(cells) { w, cell in
            switch cell {
            case .entered(let cell): w.cell(cell)
            case .moved(let id, let frame, let from):
                w.raw("{\"id\":"); w.string(id)
                w.raw(",\"frame\":"); w.frame(frame, from: from)
                w.raw("}")
            }
        }
    }

    mutating func updates(_ updates: [WireUpdate]) {
        array(updates) { w, update in
            w.raw("{\"id\":"); w.string(update.id); w.raw(",\"html\":"); w.string(update.html)
            w.raw(",\"reload\":"); w.bool(update.reload); w.raw("}")
        }
    }

    /// Inserted or moved items as runs: `{"section","index","ids":[…]}` for items at consecutive
    /// new indices of one section (a typical insert is one run: its ids and one index).
    /// - Parameter positions: (id, section index, item index) in any order.
    mutating func runs<C: Collection>(_ positions: C, sectionName: (Int) -> String) where C.Element == (String, Int, Int) {
        raw("[")
        var open: (section: Int, next: Int)?
        for (id, section, index) in positions {
            if let run = open, run.section == section, run.next == index {
                raw(",")
            } else {
                if open != nil { raw("]},") }
                raw("{\"section\":"); string(sectionName(section))
                raw(",\"index\":"); int(index)
                raw(",\"ids\":[")
            }
            string(id)
            open = (section, index + 1)
        }
        if open != nil { raw("]}") }
        raw("]")
    }
}
