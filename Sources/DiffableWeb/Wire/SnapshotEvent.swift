import DiffableDataSources

/// A `snapshot` event's JSON (docs/protocol.md): the list's identifiers and the cells of the
/// stream's window, for a stream that starts (or starts again).
enum SnapshotEvent {
    static func json(version: Int, streamID: String, snapshot: Snapshot<String, String>, layout: ListLayout, cells: [WireCell],
                     status: String, details: String, state: [String: String], selection: ListSelection? = nil) -> String {
        var writer = JSONWriter(capacity: 128 + snapshot.numberOfItems * 12 + cells.count * 160)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\"stream\":"); writer.string(streamID)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.raw(",\"status\":"); writer.string(status)
        writer.details(details)
        writer.viewState(state)
        writer.selection(selection)
        writer.raw(",\"sections\":")
        writer.array(layout.sectionIDs) { w, section in
            w.raw("{\"id\":"); w.string(section)
            w.raw(",\"items\":"); w.array((try? snapshot.itemIdentifiers(inSection: section)) ?? []) { $0.string($1) }
            w.raw("}")
        }
        writer.orthogonal(layout.orthogonalSections)
        writer.pinned(cells.compactMap(\.pin))
        writer.raw(",\"cells\":"); writer.array(cells) { $0.cell($1) }
        writer.raw("}")
        return writer.text
    }
}
