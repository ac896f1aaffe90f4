import DiffableDataSources
import MicroHTTP

// The events' JSON, written by hand on the hot path (`JSONWriter`): a changeset's shared head
// and identifiers and each stream's tail, a window event, a snapshot event.
extension LiveList {
    /// The start of a changeset event's object: its version, whether it animates, the status
    /// and the demo's view state.
    func changesetHead(_ update: DataSourceUpdate<String, String>, status: String, details: String, state: [String: String]) -> String {
        var writer = JSONWriter(capacity: 96 + status.utf8.count + details.utf8.count)
        writer.raw("{\"version\":"); writer.int(update.version)
        writer.raw(",\"animated\":"); writer.bool(update.animatingDifferences)
        writer.raw(",\"status\":"); writer.string(status)
        writer.details(details)
        writer.viewState(state)
        return writer.text
    }

    /// The identifiers of a change (`"deleted"`, `"inserted"`, `"moved"`, and `"sections"` when
    /// they changed), which every stream shares: written once per shared transition.
    func changesetIDs(_ update: DataSourceUpdate<String, String>) -> SharedEventBytes {
        guard let transition = update.transition else { return Self.writeIDs(update) }
        return TransitionCache.shared.ids(for: transition) { Self.writeIDs(update) }
    }

    private static func writeIDs(_ update: DataSourceUpdate<String, String>) -> SharedEventBytes {
        let changes = update.changeset
        let allSections = update.snapshot.sectionIdentifiers  // a few: sections are bounded
        let sectionsChanged = !(changes.sectionInsertions.isEmpty && changes.sectionDeletions.isEmpty && changes.sectionMoves.isEmpty)
        let sectionName: (Int) -> String = { index in index >= 0 && index < allSections.count ? allSections[index] : "" }
        var writer = JSONWriter(capacity: 64 + (changes.itemDeletions.count + changes.itemInsertions.count + changes.itemMoves.count) * 24)
        writer.raw(",\"deleted\":"); writer.array(changes.itemDeletions) { $0.string($1.id) }
        writer.raw(",\"inserted\":")
        writer.runs(changes.itemInsertions.lazy.map { ($0.id, $0.indexPath.section, $0.indexPath.item) }, sectionName: sectionName)
        writer.raw(",\"moved\":")
        writer.runs(changes.itemMoves.lazy.map { ($0.id, $0.to.section, $0.to.item) }, sectionName: sectionName)
        if sectionsChanged {
            writer.raw(",\"sections\":"); writer.array(allSections) { $0.string($1) }
        }
        return SharedEventBytes(writer.bytes)
    }

    /// A stream's part of a changeset, closing the object.
    func windowTail(layout: ListLayout, update: WindowUpdate) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + update.cells.count * 160)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.orthogonal(layout.orthogonalSections)
        writer.raw(",\"cells\":"); writer.windowCells(update.cells)
        writer.raw(",\"left\":"); writer.left(update)
        writer.raw(",\"updated\":"); writer.updates(update.updated)
        writer.raw("}")
        return writer.bytes
    }

    func windowJSON(version: Int, streamID: String, window: StreamWindow, layout: ListLayout, update: WindowUpdate, reset: Bool) -> String {
        var writer = JSONWriter(capacity: 96 + update.cells.count * 160)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"stream\":"); writer.string(streamID)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.raw(",\"top\":"); writer.number(window.top)
        writer.raw(",\"reset\":"); writer.bool(reset)
        writer.orthogonal(layout.orthogonalSections)
        writer.raw(",\"cells\":"); writer.windowCells(update.cells)
        writer.raw(",\"left\":"); writer.left(update)
        writer.raw("}")
        return writer.text
    }

    func snapshotEventJSON(version: Int, streamID: String, snapshot: Snapshot<String, String>, layout: ListLayout, cells: [WireCell]) -> String {
        var writer = JSONWriter(capacity: 128 + snapshot.numberOfItems * 12 + cells.count * 160)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"stream\":"); writer.string(streamID)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.raw(",\"status\":"); writer.string(demo.status(of: snapshot))
        writer.details(demo.details(of: snapshot))
        writer.viewState(demo.pageValues())
        writer.raw(",\"sections\":")
        writer.array(layout.sectionIDs) { w, section in
            w.raw("{\"id\":"); w.string(section)
            w.raw(",\"items\":"); w.array((try? snapshot.itemIdentifiers(inSection: section)) ?? []) { $0.string($1) }
            w.raw("}")
        }
        writer.orthogonal(layout.orthogonalSections)
        writer.raw(",\"cells\":"); writer.array(cells) { $0.cell($1) }
        writer.raw("}")
        return writer.text
    }
}

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

    /// `left`: held cells that left the window (with their new frame), then those gone (id only).
    mutating func left(_ update: WindowUpdate) {
        raw("[")
        var first = true
        for move in update.left {
            if !first { raw(",") }
            first = false
            raw("{\"id\":"); string(move.id); raw(",\"frame\":"); frame(move.frame); raw("}")
        }
        for id in update.dropped {
            if !first { raw(",") }
            first = false
            raw("{\"id\":"); string(id); raw("}")
        }
        raw("]")
    }
}
