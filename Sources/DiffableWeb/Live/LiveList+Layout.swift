import CompositionalLayout
import DiffableDataSources

// Layouts of the list (kept in its LayoutCache) and the cells laid out with their HTML.
extension LiveList {
    /// The list at `version` laid out for `container`, with the sizes browsers measured at its
    /// width (cached per version, viewport and measurements; made outside every lock: it asks
    /// the demo for its layout).
    func layout(version: Int, snapshot: Snapshot<String, String>, container: LayoutContainer) -> ListLayout {
        let measured = measurements.withLock { $0.table(forWidth: container.width) }
        return layouts.layout(version: version, snapshot: snapshot, container: container, measuredGeneration: measured.generation) {
            ListLayout(snapshot: snapshot, layout: demo.layout(), container: container, measured: measured)
        }
    }

    /// A cell with its frame and HTML (rendered once per content, shared by every session); a
    /// decoration has none (CSS draws it).
    func wireCell(_ cell: ListLayout.Cell, in snapshot: Snapshot<String, String>) -> WireCell {
        let content: CellContent? = switch cell.kind {
        case .item: demo.cell(for: cell.id)
        case .decoration: nil
        case .header, .footer, .supplementary: demo.supplementary(kind: cell.kind, section: cell.section, in: snapshot)
        }
        return WireCell(id: cell.id, kind: cell.kind, section: cell.section, index: cell.index, frame: WireFrame(cell.frame),
                        html: content.map(renderer.cell) ?? "", pin: cell.pin.map { WirePin(id: cell.id, $0) }, fits: cell.fits)
    }

    /// A `snapshot` event for a stream: the list's identifiers and the window's cells.
    func snapshotEventJSON(version: Int, streamID: String, snapshot: Snapshot<String, String>, layout: ListLayout, cells: [WireCell]) -> String {
        SnapshotEvent.json(version: version, streamID: streamID, snapshot: snapshot, layout: layout, cells: cells,
                           status: demo.status(of: snapshot), details: demo.details(of: snapshot), state: demo.pageValues(),
                           selection: demo.selection)
    }
}
