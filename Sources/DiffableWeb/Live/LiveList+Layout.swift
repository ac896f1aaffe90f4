import CompositionalLayout
import DiffableDataSources

// The layout cache (per version and viewport) and the cells laid out with their HTML.
extension LiveList {
    func layout(version: Int, snapshot: Snapshot<String, String>, container: LayoutContainer, in state: inout State) -> ListLayout {
        if state.layoutsVersion != version {
            state.layouts.removeAll(keepingCapacity: true)
            state.layoutsVersion = version
        }
        if let cached = state.layouts[container] { return cached }
        let layout = ListLayout(snapshot: snapshot, layout: demo.layout(), container: container)
        if state.layouts.count >= 8 { state.layouts.removeAll(keepingCapacity: true) }
        state.layouts[container] = layout
        return layout
    }

    /// A cell with its frame and HTML (rendered once per content, shared by every session).
    func wireCell(_ cell: ListLayout.Cell, in snapshot: Snapshot<String, String>) -> WireCell {
        let content = cell.kind == .item ? demo.cell(for: cell.id) : demo.supplementary(kind: cell.kind, section: cell.section, in: snapshot)
        return WireCell(id: cell.id, kind: cell.kind, section: cell.section, index: cell.index, frame: WireFrame(cell.frame),
                        html: content.map(renderer.cell) ?? "")
    }
}
