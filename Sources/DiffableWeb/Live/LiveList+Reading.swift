import CompositionalLayout
import DiffableDataSources
import Foundation
import Synchronization

// Reads of a list (its version, snapshot, layouts and cells), with the caches that make
// repeated reads cheap. Nothing here writes.
extension LiveList {
    var version: Int { dataSource.version }
    /// The logged events, oldest first (what a reconnecting client can replay).
    var recentEvents: [LoggedEvent] { state.withLock { Array($0.log.events) } }
    var openStreamCount: Int { state.withLock { $0.followers.count } }
    var container: LayoutContainer { state.withLock { $0.container } }

    /// The snapshot and its version, read together.
    func currentSnapshot() -> (version: Int, snapshot: Snapshot<String, String>) { dataSource.versionedSnapshot() }

    /// The current snapshot laid out for `container` (cached per version and viewport).
    func layout(for container: LayoutContainer) -> ListLayout {
        let (version, snapshot) = dataSource.versionedSnapshot()
        return layout(version: version, snapshot: snapshot, container: container)
    }

    /// Cells meeting `rect` with their HTML, in document order (for server-rendered pages).
    /// A page that asks for a viewport (`?width=…&height=…`) is laid out for it, without
    /// making it the session's: a GET writes nothing.
    func cells(intersecting rect: LayoutRect, limit: Int, container requested: LayoutContainer? = nil)
        -> (cells: [WireCell], contentSize: LayoutPixelSize, status: String) {
        let layout = layout(for: requested ?? container)
        let cells = layout.cells(in: rect).prefix(limit).map { wireCell($0, in: layout.snapshot) }
        return (cells, layout.contentSize, demo.status(of: layout.snapshot))
    }

    /// The cells' HTML of the items at `range` of the list (sections concatenated), for the
    /// no-JavaScript list, of the list's snapshot or of a page preview's.
    /// - Complexity: O(range + sections): items are found by index, not by walking the list.
    func itemHTML(of snapshot: Snapshot<String, String>? = nil, range: Range<Int>) -> [(id: String, html: String)] {
        let snapshot = snapshot ?? dataSource.snapshot()
        var values: [(id: String, html: String)] = []
        var start = 0
        for (section, id) in snapshot.sectionIdentifiers.enumerated() {
            let count = (try? snapshot.numberOfItems(inSection: id)) ?? 0
            defer { start += count }
            // A section wholly before or after the range meets none of it (its bounds would cross).
            let (lower, upper) = (max(range.lowerBound, start), min(range.upperBound, start + count))
            guard lower < upper else { continue }
            for flat in lower..<upper {
                if let item = snapshot.itemIdentifier(at: IndexPath(item: flat - start, section: section)),
                   let content = demo.cell(for: item) { values.append((item, renderer.cell(content))) }
            }
        }
        return values
    }

    /// Cells of a snapshot that is not the list's (a page preview), laid out aside for the
    /// list's viewport: nothing of the list is touched.
    func previewCells(of snapshot: Snapshot<String, String>, intersecting rect: LayoutRect, limit: Int,
                      container requested: LayoutContainer? = nil)
        -> (cells: [WireCell], contentSize: LayoutPixelSize) {
        let layout = ListLayout(snapshot: snapshot, layout: demo.layout(), container: requested ?? container)
        return (layout.cells(in: rect).prefix(limit).map { wireCell($0, in: snapshot) }, layout.contentSize)
    }

    /// `GET …/snapshot`'s body, built once per version by `build`.
    func snapshotJSON(_ build: (Int, Snapshot<String, String>) -> [UInt8]) -> [UInt8] {
        let (version, snapshot) = dataSource.versionedSnapshot()
        if let cached = state.withLock({ $0.snapshotBody }), cached.version == version, cached.snapshot.isIdentical(to: snapshot) {
            return cached.json
        }
        let json = build(version, snapshot)
        let kept = state.withLock { state -> Bool in
            guard dataSource.version == version else { return false }
            state.snapshotBody = SnapshotBody(version: version, snapshot: snapshot, json: json)
            return true
        }
        if kept { memory.setCaches(json.count) }
        return json
    }
}
