import DiffableDataSources
import MicroHTTP
import Synchronization

/// What one write tells, built from its updates once it has returned: the events to log, the
/// changes to save, each stream's event and what each stream then holds. Nothing of it is
/// kept until the store has taken the write (``LiveList/commit(_:ticket:)``): a store that
/// undoes a write and runs it again builds another.
struct Publication: Sendable {
    /// Whether the write itself applied anything (changes another process made do not count).
    var changedList = false
    /// Whether the list is saved as its demo's state (nothing of its identifiers is stored).
    var derived = false
    /// The version after the write.
    var version = 0
    var logged: [LoggedEvent] = []
    var stored: [StoredChange] = []
    var storedBytes = 0
    var checkpointDue = false
    var sends: [LiveList.Send] = []
    /// The streams' state after the events.
    var followers = Followers()
    var supplementaryHTML: [String: String] = [:]
    /// The windows to report to a demo that observes them.
    var windows: [(stream: String, held: [String: WireFrame])] = []
    var snapshot: Snapshot<String, String>?
    /// The items the applies deleted, when the list keeps measured sizes (their sizes are
    /// dropped once the write is taken: ``LiveList/forgetMeasurements(of:in:)``).
    var deletedItems: [String] = []
    /// The selection the events show after this write.
    var selection: ListSelection?
}

// Publishing: a write's updates become the logged event, the change to save, and each
// stream's event, after the write has returned and outside every lock.
extension LiveList {
    /// Builds what the updates tell (those `replicated` from another process are saved
    /// already: logged, not stored). Reads the streams' state and changes nothing: see
    /// ``commit(_:ticket:)``.
    func publish(replicated: [DataSourceUpdate<String, String>], own: [DataSourceUpdate<String, String>], derived: Bool) -> Publication {
        var publication = Publication()
        publication.changedList = !own.isEmpty
        publication.derived = derived
        publication.version = own.last?.version ?? dataSource.version
        guard !replicated.isEmpty || !own.isEmpty else { return publication }
        let (followers, supplementaryHTML, shown) = state.withLock { ($0.followers, $0.supplementaryHTML, $0.publishedSelection) }
        publication.followers = followers
        publication.supplementaryHTML = supplementaryHTML
        // The selection after the write, on its last event when it is not what the events showed.
        let selection = isSelectable ? demo.selection : nil
        publication.selection = selection
        let last = own.last ?? replicated.last
        if !measurements.withLock({ $0.isEmpty }) {
            for update in [replicated, own].joined() {
                publication.deletedItems.append(contentsOf: update.changeset.itemDeletions.lazy.map(\.id))
            }
        }
        let changedSelection = selection != shown ? selection : nil
        for update in replicated { publish(update, replica: true, selection: update.version == last?.version ? changedSelection : nil, into: &publication) }
        for update in own { publish(update, replica: false, selection: update.version == last?.version ? changedSelection : nil, into: &publication) }
        return publication
    }

    /// Keeps what a write told, once the store has taken it: the log, the streams' state, and
    /// the events under the write's ticket (sent once it is saved).
    func commit(_ publication: Publication, ticket: EventOutbox<Send>.Ticket) {
        guard let snapshot = publication.snapshot else { return }
        let logged = state.withLock { state in
            defer { state.windowSequence = 0 }
            state.snapshotBody = nil
            for event in publication.logged { state.log.append(event) }
            // Streams that closed meanwhile stay closed.
            state.followers.update(from: publication.followers)
            state.supplementaryHTML = publication.supplementaryHTML
            state.publishedSelection = publication.selection
            return state.log.byteCount
        }
        memory.setLog(logged)
        memory.setCaches(0)
        forgetMeasurements(of: publication.deletedItems, in: snapshot)
        outbox.fill(ticket, with: publication.sends)
        reportWindows(publication.windows, snapshot: snapshot)
    }

    private func publish(_ update: DataSourceUpdate<String, String>, replica: Bool, selection: ListSelection?, into publication: inout Publication) {
        publication.snapshot = update.snapshot
        let snapshot = update.snapshot
        let eventID = EventID(version: update.version)
        let storing = storage != nil && !replica && !publication.derived

        if update.kind == .reloadData {
            // Nothing to animate and nothing to replay: every stream starts again.
            if !replica { publication.logged.append(LoggedEvent(id: eventID, name: "snapshot", data: "{}")) }
            if storing {
                publication.stored.append(StoredChange(event: StoredEvent(version: update.version, name: "snapshot", data: "{}"), changeset: nil))
                publication.checkpointDue = true
            }
            for (index, var follower) in publication.followers.all.enumerated() {
                let layout = layout(version: update.version, snapshot: snapshot, container: follower.window.container)
                let cells = layout.cells(in: follower.window.rect)
                follower.held = Dictionary(uniqueKeysWithValues: cells.map { ($0.id, WireFrame($0.frame)) })
                follower.signature = WindowUpdate.signature(of: follower.held)
                follower.version = update.version
                follower.contentSize = WireSize(layout.contentSize)
                publication.followers.replace(at: index, with: follower)
                let json = snapshotEventJSON(version: update.version, streamID: follower.id, snapshot: snapshot, layout: layout,
                                             cells: cells.map { wireCell($0, in: snapshot) })
                publication.sends.append((follower.stream, "snapshot", epoch.wire(eventID), EventData(json)))
            }
            return
        }

        let changes = update.changeset
        // What every stream shares: the version and status, then the identifiers (written
        // once per shared transition for every list that makes it, see TransitionCache).
        let head = ChangesetEvent.head(update, status: demo.status(of: snapshot), details: demo.details(of: snapshot), state: demo.pageValues(),
                                       selection: selection)
        // The identifiers: once per shared transition for every list that makes it.
        let ids = update.transition.map { transition in TransitionCache.shared.ids(for: transition) { ChangesetEvent.ids(update) } }
            ?? ChangesetEvent.ids(update)
        if !replica {
            let data = EventData(head: head, shared: [ids], tail: "}")
            publication.logged.append(LoggedEvent(id: eventID, name: "changeset", data: data))
            if storing {
                // As stored: the same text for every list making a shared step.
                let changeset = update.transition.map { transition in
                    TransitionCache.shared.storedChangeset(for: transition) { StoredChangeset.encode(changes) }
                } ?? StoredChangeset.encode(changes)
                publication.stored.append(StoredChange(event: StoredEvent(version: update.version, name: "changeset", data: data.text),
                                                       changeset: changeset))
                publication.storedBytes += changeset.utf8.count
            }
        }
        guard !publication.followers.isEmpty else { return }

        // Contents that changed: reconfigured or reloaded items (and items of reloaded
        // sections), and headers or footers whose HTML is not what it was.
        var contentChange: [String: Bool] = [:]
        for change in changes.itemReconfigures { contentChange[change.id] = false }
        for change in changes.itemReloads { contentChange[change.id] = true }
        let reloadedSections = Set(changes.sectionReloads.map(\.id))
        var rendered: [TransitionCache.WindowKey: TransitionCache.Window] = [:]
        var supplementariesChecked = false
        for (index, var follower) in publication.followers.all.enumerated() where follower.version < update.version {
            let layout = layout(version: update.version, snapshot: snapshot, container: follower.window.container)
            if !supplementariesChecked {
                supplementariesChecked = true
                for cell in layout.supplementaryCells {
                    let html = wireCell(cell, in: snapshot).html
                    if let previous = publication.supplementaryHTML[cell.id], previous != html { contentChange[cell.id] = false }
                    publication.supplementaryHTML[cell.id] = html
                }
            }
            let group = TransitionCache.WindowKey(window: follower.window, signature: follower.signature, measured: layout.measuredSignature)
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
                return TransitionCache.Window(tail: SharedEventBytes(ChangesetEvent.windowTail(layout: layout, update: window)), held: window.held,
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
            follower.contentSize = WireSize(layout.contentSize)
            publication.followers.replace(at: index, with: follower)
            publication.sends.append((follower.stream, "changeset", epoch.wire(eventID), EventData(head: head, shared: [ids, result.tail])))
            if demo.observesWindows { publication.windows.append((follower.id, result.held)) }
        }
    }
}
