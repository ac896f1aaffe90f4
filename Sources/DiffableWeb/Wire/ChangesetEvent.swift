import MicroHTTP
import DiffableDataSources

/// A `changeset` event's JSON (docs/protocol.md), written by hand on the hot path: a head and
/// the identifiers that every stream shares, then each stream's tail (its window's cells).
enum ChangesetEvent {
    /// The start of the object: its version, whether it animates, the status, the details and
    /// the demo's view state.
    /// `selection`: the list's selection when this event changes it (`nil`: omitted).
    static func head(_ update: DataSourceUpdate<String, String>, status: String, details: String, state: [String: String],
                     selection: ListSelection? = nil) -> String {
        var writer = JSONWriter(capacity: 96 + status.utf8.count + details.utf8.count)
        writer.raw("{\"version\":"); writer.int(update.version)
        writer.raw(",\"animated\":"); writer.bool(update.animatingDifferences)
        writer.raw(",\"status\":"); writer.string(status)
        writer.details(details)
        writer.viewState(state)
        writer.selection(selection)
        return writer.text
    }

    /// The identifiers of a change (`"deleted"`, `"inserted"`, `"moved"`, and `"sections"` when
    /// they changed), which every stream shares.
    static func ids(_ update: DataSourceUpdate<String, String>) -> SharedEventBytes {
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
        // They stand alone: a gzip stream splices a long list deflated once for every stream
        // (it owes little to the events before it; the window's cells that follow do).
        return SharedEventBytes(writer.bytes, standsAlone: true)
    }

    /// A stream's part, closing the object: the content size and its window's cells.
    static func windowTail(layout: ListLayout, update: WindowUpdate) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + update.cells.count * 160)
        writer.raw(",\"contentSize\":"); writer.size(WireSize(layout.contentSize))
        writer.orthogonal(layout.orthogonalSections)
        writer.pinned(update.pinned)
        writer.raw(",\"cells\":"); writer.windowCells(update.cells)
        writer.raw(",\"left\":"); writer.left(update)
        writer.raw(",\"updated\":"); writer.updates(update.updated)
        writer.raw("}")
        return writer.bytes
    }
}
