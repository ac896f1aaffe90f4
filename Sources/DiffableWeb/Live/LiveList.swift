import CompositionalLayout
import DiffableDataSources
import Foundation
import Logging
import MicroHTTP
import Synchronization

/// One demo's list in one session: its data source, its layout for the session's viewport,
/// the log of recent events, and the browsers (and scripts) following it.
///
/// Every apply to ``dataSource`` — from a keystroke, a button, a script — arrives in
/// ``didApply(_:)``, is laid out, turned into one `changeset` event proportional to the change,
/// logged, and sent to every open stream. This is the one generic path every demo uses.
final class LiveList: Sendable {
    let descriptor: DemoDescriptor
    let demo: any Demo
    let dataSource = DiffableDataSource<String, String>()
    let renderer: Renderer
    /// Tags this list's event ids, so that a client of another list's run resyncs.
    let epoch = ListEpoch.random()

    private struct State: Sendable {
        var snapshot = Snapshot<String, String>()
        var version = 0
        var container: LayoutContainer
        var placement = Placement()
        var layoutSequence = 0
        /// Rendered inner HTML by cell id, so reconnects and pages do not re-render.
        var html: [String: String] = [:]
        var log: EventLog
        var streams: [ObjectIdentifier: EventStream] = [:]
    }

    private let state: Mutex<State>
    /// The newest `seq` applied per client, so a late keystroke never overwrites a newer one.
    private let actionGate = Mutex<[String: Int]>([:])
    /// Writers (actions, API writes) queue here, suspended rather than blocking a thread.
    let writers = AsyncGate()

    /// Runs a write alone among this list's writers.
    func exclusive<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
        try await writers.run(body)
    }

    init(descriptor: DemoDescriptor, renderer: Renderer, container: LayoutContainer, logCapacity: Int) {
        self.descriptor = descriptor
        self.demo = descriptor.make()
        self.renderer = renderer
        self.state = Mutex(State(container: container, log: EventLog(capacity: logCapacity)))
        dataSource.addObserver { [weak self] update in self?.didApply(update) }
        dataSource.apply(demo.initialSnapshot(), animatingDifferences: false)
    }

    // MARK: Reading

    var version: Int { state.withLock { $0.version } }
    /// The logged events, oldest first (what a reconnecting client can replay).
    var recentEvents: [LoggedEvent] { state.withLock { $0.log.events } }
    var openStreamCount: Int { state.withLock { $0.streams.count } }
    var container: LayoutContainer { state.withLock { $0.container } }

    /// The snapshot the stream last described, and its version, read together.
    func currentSnapshot() -> (version: Int, snapshot: Snapshot<String, String>) {
        state.withLock { ($0.version, $0.snapshot) }
    }

    /// The `snapshot` event for the current state.
    func snapshotEvent() -> LoggedEvent {
        state.withLock { state in
            let event = SnapshotEvent(
                version: state.version, contentSize: WireSize(state.placement.contentSize),
                status: demo.status(of: state.snapshot),
                cells: state.placement.cells.map { wireCell($0, in: &state) })
            return LoggedEvent(id: currentID(state), name: "snapshot", data: event.json)
        }
    }

    /// Cells intersecting `rect`, with their HTML, in document order (for server-rendered pages).
    func cells(intersecting rect: LayoutRect, limit: Int) -> (cells: [WireCell], contentSize: LayoutPixelSize, status: String) {
        state.withLock { state in
            var cells: [WireCell] = []
            for cell in state.placement.cells where cells.count < limit && cell.frame.intersects(rect) {
                cells.append(wireCell(cell, in: &state))
            }
            return (cells, state.placement.contentSize, demo.status(of: state.snapshot))
        }
    }

    /// Every item's text values in order (for the no-JavaScript fallback list), of the list's
    /// snapshot or of a page preview's.
    func itemValues(of snapshot: Snapshot<String, String>? = nil, limit: Int) -> [[String: String]] {
        let items = (snapshot ?? state.withLock { $0.snapshot }).itemIdentifiers
        return items.prefix(limit).compactMap { demo.cell(for: $0)?.values }
    }

    /// Cells of a snapshot that is not the list's (a page preview), laid out aside for the
    /// list's viewport: nothing of the list is touched.
    func previewCells(of snapshot: Snapshot<String, String>, intersecting rect: LayoutRect, limit: Int)
        -> (cells: [WireCell], contentSize: LayoutPixelSize) {
        let placement = Placement(snapshot: snapshot, layout: demo.layout(), container: container)
        var cells: [WireCell] = []
        for cell in placement.cells where cells.count < limit && cell.frame.intersects(rect) {
            let content = cell.kind == "item" ? demo.cell(for: cell.id) : demo.supplementary(kind: cell.kind, section: cell.section, in: snapshot)
            cells.append(WireCell(id: cell.id, kind: cell.kind, section: cell.section, index: cell.index,
                                  frame: WireFrame(cell.frame), html: content.map(renderer.cell) ?? ""))
        }
        return (cells, placement.contentSize)
    }

    // MARK: Following

    /// Starts a stream: replays what the client missed since `lastEventID`, or sends a
    /// fresh `snapshot`; then every later event.
    func attach(_ stream: EventStream, lastEventID: String?) {
        stream.onClose { [weak self, weak stream] _ in
            guard let self, let stream else { return }
            self.state.withLock { _ = $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
        }
        let snapshot = snapshotEvent()
        state.withLock { state in
            if let lastEventID, let id = epoch.parse(lastEventID), let missed = id == currentID(state) ? [] : state.log.events(after: id) {
                for event in missed { _ = stream.send(event: event.name, id: epoch.wire(event.id), data: event.data) }
            } else if snapshot.id == currentID(state) {
                _ = stream.send(event: snapshot.name, id: epoch.wire(snapshot.id), data: snapshot.data)
            } else {
                // An apply slipped in between: build the snapshot again under the lock.
                let fresh = SnapshotEvent(version: state.version, contentSize: WireSize(state.placement.contentSize),
                                          status: demo.status(of: state.snapshot),
                                          cells: state.placement.cells.map { wireCell($0, in: &state) })
                _ = stream.send(event: "snapshot", id: epoch.wire(currentID(state)), data: fresh.json)
            }
            if stream.isOpen { state.streams[ObjectIdentifier(stream)] = stream }
        }
    }

    /// Closes every stream (their clients reconnect and resync).
    func closeStreams() {
        let streams = state.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.close() }
    }

    /// Sends a comment to every stream, so proxies keep idle connections open.
    func heartbeat() {
        let streams = state.withLock { Array($0.streams.values) }
        for stream in streams { _ = stream.heartbeat() }
    }

    // MARK: Acting

    /// Runs a demo action. A `seq` not newer than the newest one applied for the same
    /// `client` is ignored (the last keystroke wins).
    /// - Returns: the version after the action.
    func perform(_ action: String, parameters: ActionParameters, client: String, seq: Int?) throws(ActionError) -> Int {
        try actionGate.withLock { newest throws(ActionError) -> Int in
            if let seq {
                if let last = newest[client], seq <= last { return version }
                if newest.count > 64, newest[client] == nil { newest.removeAll() }  // bounded
                newest[client] = seq
            }
            try demo.perform(action, parameters: parameters, on: dataSource)
            return version
        }
    }

    /// Sets the viewport and streams a `layout` event with the frames that changed.
    func setViewport(_ container: LayoutContainer) {
        state.withLock { state in
            guard state.container != container else { return }
            state.container = container
            let placement = Placement(snapshot: state.snapshot, layout: demo.layout(), container: container)
            let (deleted, inserted, moved) = difference(from: state.placement, to: placement, oldPath: { $0 },
                                                        state: &state)
            state.placement = placement
            guard !deleted.isEmpty || !inserted.isEmpty || !moved.isEmpty else { return }
            state.layoutSequence += 1
            let event = LayoutEvent(version: state.version, contentSize: WireSize(placement.contentSize),
                                    deleted: deleted, inserted: inserted, moved: moved)
            publish(LoggedEvent(id: currentID(state), name: "layout", data: event.json), in: &state)
        }
    }

    // MARK: The generic path: apply → changeset → layout → event

    private func didApply(_ update: DataSourceUpdate<String, String>) {
        state.withLock { state in
            let placement = Placement(snapshot: update.snapshot, layout: demo.layout(), container: state.container)
            let previous = state.placement
            state.snapshot = update.snapshot
            state.version = update.version
            state.layoutSequence = 0
            if update.kind == .reloadData {
                state.html.removeAll(keepingCapacity: true)
                state.placement = placement
                let event = SnapshotEvent(version: update.version, contentSize: WireSize(placement.contentSize),
                                          status: demo.status(of: update.snapshot),
                                          cells: placement.cells.map { wireCell($0, in: &state) })
                publish(LoggedEvent(id: currentID(state), name: "snapshot", data: event.json), in: &state)
                return
            }
            let changes = update.changeset
            for deletion in changes.itemDeletions { state.html[deletion.id] = nil }
            var updated: [WireUpdate] = []
            for (list, reload) in [(changes.itemReconfigures, false), (changes.itemReloads, true)] {
                for change in list {
                    guard let content = demo.cell(for: change.id) else { continue }
                    let html = renderer.cell(content)
                    state.html[change.id] = html
                    updated.append(WireUpdate(id: change.id, html: html, reload: reload))
                }
            }
            state.placement = placement
            let oldPaths = SurvivorPaths(changes, old: update.previousSnapshot, new: update.snapshot)
            var (deleted, inserted, moved) = difference(from: previous, to: placement, oldPath: oldPaths.oldPath,
                                                        state: &state)
            // Supplementaries whose content changed (a header showing a count) are updated in place.
            for (id, position) in placement.supplementaryCell where previous.supplementaryCell[id] != nil {
                let cell = placement.cells[position]
                guard let content = demo.supplementary(kind: cell.kind, section: cell.section, in: update.snapshot) else { continue }
                let html = renderer.cell(content)
                if state.html[id] != html {
                    state.html[id] = html
                    updated.append(WireUpdate(id: id, html: html, reload: false))
                }
            }
            deleted.insert(contentsOf: changes.itemDeletions.map(\.id), at: 0)
            inserted.insert(contentsOf: changes.itemInsertions.compactMap { insertion in
                placement.itemCell(at: insertion.indexPath).map { wireCell($0, in: &state) }
            }, at: 0)
            let event = ChangesetEvent(
                version: update.version, animated: update.animatingDifferences, contentSize: WireSize(placement.contentSize),
                status: demo.status(of: update.snapshot), deleted: deleted, inserted: inserted, moved: moved, updated: updated)
            publish(LoggedEvent(id: currentID(state), name: "changeset", data: event.json), in: &state)
        }
    }

    /// What changed between two placements: headers and footers that appeared or went, and
    /// the frames of surviving cells that moved. `oldPath` maps a surviving item's new index
    /// path to its old one (see ``SurvivorPaths``), and is `nil` exactly for the items the
    /// changeset inserted, which the caller sends whole: no lookups by identifier.
    private func difference(from old: Placement, to new: Placement, oldPath: (IndexPath) -> IndexPath?,
                            state: inout State)
        -> (deleted: [String], inserted: [WireCell], moved: [WireMove]) {
        var deleted: [String] = [], inserted: [WireCell] = [], moved: [WireMove] = []
        for (id, _) in old.supplementaryCell where new.supplementaryCell[id] == nil {
            deleted.append(id)
            state.html[id] = nil
        }
        for cell in new.cells {
            let before: LayoutRect?
            if let index = cell.index {  // an item
                guard let oldPath = oldPath(IndexPath(item: index, section: cell.sectionIndex)),
                      let previous = old.itemFrame(at: oldPath) else {
                    continue  // inserted by the changeset: sent whole by the caller
                }
                before = previous
            } else {
                before = old.supplementaryCell[cell.id].map { old.cells[$0].frame }
            }
            if let before {
                let frame = WireFrame(cell.frame)
                if WireFrame(before) != frame { moved.append(WireMove(id: cell.id, frame: frame)) }
            } else {
                // A header or footer that appeared.
                inserted.append(wireCell(cell, in: &state))
            }
        }
        return (deleted, inserted, moved)
    }

    /// A cell with its frame and (cached) HTML.
    private func wireCell(_ cell: Placement.Cell, in state: inout State) -> WireCell {
        let html: String
        if let cached = state.html[cell.id] {
            html = cached
        } else {
            let content = cell.kind == "item" ? demo.cell(for: cell.id) : demo.supplementary(kind: cell.kind, section: cell.section, in: state.snapshot)
            html = content.map(renderer.cell) ?? ""
            state.html[cell.id] = html
        }
        return WireCell(id: cell.id, kind: cell.kind, section: cell.section, index: cell.index, frame: WireFrame(cell.frame), html: html)
    }

    private func currentID(_ state: State) -> EventID { EventID(version: state.version, layout: state.layoutSequence) }

    private func publish(_ event: LoggedEvent, in state: inout State) {
        state.log.append(event)
        var gone: [ObjectIdentifier] = []
        for (key, stream) in state.streams where !stream.send(event: event.name, id: epoch.wire(event.id), data: event.data) {
            gone.append(key)
        }
        for key in gone { state.streams[key] = nil }
    }
}
