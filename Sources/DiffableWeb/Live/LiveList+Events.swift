import DiffableDataSources
import MicroHTTP
import Synchronization

// The generic path: apply → changeset → one event per window. An apply of the data source
// becomes the logged event, the change to save, and each stream's event.
extension LiveList {
    func didApply(_ update: DataSourceUpdate<String, String>) {
        guard publishing.load(ordering: .acquiring) else { return }
        let replica = replicating.load(ordering: .acquiring)
        if !replica { applied.store(true, ordering: .releasing) }
        var windows: [(stream: String, held: [String: WireFrame])] = []
        let sends = state.withLock { state -> [Send] in
            state.snapshotBody = nil
            state.windowSequence = 0
            let snapshot = update.snapshot
            let status = demo.status(of: snapshot)
            let viewState = demo.pageValues()
            let details = demo.details(of: snapshot)
            let eventID = EventID(version: update.version)

            if update.kind == .reloadData {
                // Nothing to animate and nothing to replay: every stream starts again.
                if !replica { state.log.append(LoggedEvent(id: eventID, name: "snapshot", data: "{}")) }
                if storage != nil, !replica {
                    pending.withLock { pending in
                        pending.changes.append(StoredChange(event: StoredEvent(version: update.version, name: "snapshot", data: "{}"), changeset: nil))
                        pending.checkpointDue = true
                    }
                }
                var sends: [Send] = []
                for (key, var follower) in state.followers {
                    let layout = layout(version: update.version, snapshot: snapshot, container: follower.window.container, in: &state)
                    let cells = layout.cells(in: follower.window.rect)
                    follower.held = Dictionary(uniqueKeysWithValues: cells.map { ($0.id, WireFrame($0.frame)) })
                    follower.signature = WindowUpdate.signature(of: follower.held)
                    follower.version = update.version
                    state.followers[key] = follower
                    let json = snapshotEventJSON(version: update.version, streamID: follower.id, snapshot: snapshot, layout: layout,
                                                 cells: cells.map { wireCell($0, in: snapshot) })
                    sends.append((follower.stream, "snapshot", epoch.wire(eventID), EventData(json)))
                }
                return sends
            }

            let changes = update.changeset
            // What every stream shares: the version and status, then the identifiers (written
            // once per shared transition for every list that makes it, see TransitionCache).
            let head = changesetHead(update, status: status, details: details, state: viewState)
            let ids = changesetIDs(update)
            if !replica {
                let data = EventData(head: head, shared: [ids], tail: "}")
                state.log.append(LoggedEvent(id: eventID, name: "changeset", data: data))
                if storage != nil {
                    // As stored: the same text for every list making a shared step.
                    let changeset = update.transition.map { transition in
                        TransitionCache.shared.storedChangeset(for: transition) { StoredChangeset.encode(changes) }
                    } ?? StoredChangeset.encode(changes)
                    pending.withLock { pending in
                        pending.changes.append(StoredChange(event: StoredEvent(version: update.version, name: "changeset", data: data.text),
                                                            changeset: changeset))
                        pending.bytesSinceCheckpoint += changeset.utf8.count
                    }
                }
            }
            guard !state.followers.isEmpty else { return [] }

            // Contents that changed: reconfigured or reloaded items (and items of reloaded
            // sections), and headers or footers whose HTML is not what it was.
            var contentChange: [String: Bool] = [:]
            for change in changes.itemReconfigures { contentChange[change.id] = false }
            for change in changes.itemReloads { contentChange[change.id] = true }
            let reloadedSections = Set(changes.sectionReloads.map(\.id))
            var rendered: [TransitionCache.WindowKey: TransitionCache.Window] = [:]
            var sends: [Send] = []
            var supplementariesChecked = false
            for (key, var follower) in state.followers where follower.version < update.version {
                let layout = layout(version: update.version, snapshot: snapshot, container: follower.window.container, in: &state)
                if !supplementariesChecked {
                    supplementariesChecked = true
                    for cell in layout.supplementaryCells {
                        let html = wireCell(cell, in: snapshot).html
                        if let previous = state.supplementaryHTML[cell.id], previous != html { contentChange[cell.id] = false }
                        state.supplementaryHTML[cell.id] = html
                    }
                }
                let group = TransitionCache.WindowKey(window: follower.window, signature: follower.signature)
                let make = { () -> TransitionCache.Window in
                    let window = WindowUpdate(
                        layout: layout, rect: follower.window.rect, held: follower.held,
                        // A held item the new snapshot lacks was deleted: an O(1) index lookup,
                        // rather than a set of every deleted id (a search may delete thousands).
                        // Headers and footers (`header:<section>`) are never items; an item
                        // id may contain a colon too (a URL), so ask the layout.
                        isDeleted: { !snapshot.contains(item: $0) && layout.cell($0) == nil },
                        contentChange: { id in
                            if let change = contentChange[id] { return change }
                            if !reloadedSections.isEmpty, let section = snapshot.sectionIdentifier(containingItem: id),
                               reloadedSections.contains(section) { return true }
                            return nil
                        },
                        html: { self.wireCell($0, in: snapshot).html })
                    return TransitionCache.Window(tail: SharedEventBytes(self.windowTail(layout: layout, update: window)), held: window.held,
                                                  signature: WindowUpdate.signature(of: window.held))
                }
                let result: TransitionCache.Window
                if let done = rendered[group] {
                    result = done
                } else if let transition = update.transition, demo.sharesCellContent, layout.supplementaryCells.isEmpty {
                    // The same step from the same window in another session: the same bytes.
                    result = TransitionCache.shared.window(for: transition, group, make: make)
                    rendered[group] = result
                } else {
                    result = make()
                    rendered[group] = result
                }
                follower.held = result.held
                follower.signature = result.signature
                follower.version = update.version
                state.followers[key] = follower
                sends.append((follower.stream, "changeset", epoch.wire(eventID), EventData(head: head, shared: [ids, result.tail])))
                if demo.observesWindows { windows.append((follower.id, result.held)) }
            }
            return sends
        }
        if holdingEvents.load(ordering: .acquiring) {
            pending.withLock { $0.sends.append(contentsOf: sends) }
        } else {
            send(sends)
        }
        reportWindows(windows, snapshot: update.snapshot)
    }
}
