import DiffableDataSources
import MicroHTTP
import Synchronization

// Followers: the streams following the list, each with its window: opening one (a replay
// or a snapshot), moving its window, closing them, and telling the demo what they hold.
extension LiveList {
    /// Moves stream `streamID`'s window and sends it a `window` event with what entered and
    /// left. - Returns: `false` when there is no such stream.
    @discardableResult
    func moveWindow(streamID: String, to window: StreamWindow) async -> Bool {
        (try? await writer.run { self.sendWindow(streamID: streamID, window: window) }) ?? false
    }

    /// Starts a stream with its viewport: replays what the client missed since `lastEventID`
    /// (identifiers only) and then its window afresh, or sends a `snapshot`; then every later
    /// event. The first event is sent by the writer, in order with every other.
    /// `trace`: the span context of the request that opened it (its first event's span is a child).
    func attach(_ stream: EventStream, window: StreamWindow?, lastEventID: String?, trace: Spans.Trace? = nil) {
        stream.onClose { [weak self, weak stream] _ in
            guard let self, let stream else { return }
            let closed = self.state.withLock { state -> (count: Int, id: String)? in
                guard let follower = state.followers.remove(stream) else { return nil }
                return (state.followers.count, follower.id)
            }
            guard let closed else { return }
            self.demo.streamCountDidChange(closed.count)
            self.reportClosed([closed.id])
        }
        Task {
            let open = { [self] in
                try? await writer.run {
                    Spans.traced(lastEventID == nil ? "stream open" : "stream replay", list: self.name) {
                        self.open(stream, window: window, lastEventID: lastEventID)
                    }
                }
            }
            if let trace { await trace.run(open) } else { await open() }
        }
    }

    /// Closes every stream (their clients reconnect and resync).
    func closeStreams() {
        let followers = state.withLock { $0.followers.removeAll() }
        for follower in followers { follower.stream.close() }
        guard !followers.isEmpty else { return }
        demo.streamCountDidChange(0)
        reportClosed(followers.map(\.id))
    }

    /// In the writer: the stream's first events are built outside the state lock (they ask
    /// the demo for cells), then the stream joins the followers.
    private func open(_ stream: EventStream, window requested: StreamWindow?, lastEventID: String?) {
        guard stream.isOpen else { return }
        let (version, snapshot) = dataSource.versionedSnapshot()
        let (window, missed, windowSequence) = state.withLock { state -> (StreamWindow, [LoggedEvent]?, Int) in
            let window = requested ?? StreamWindow(container: state.container, top: 0)
            guard let lastEventID, let id = epoch.parse(lastEventID) else { return (window, nil, state.windowSequence) }
            return (window, missedEvents(after: id, version: version, state: state), state.windowSequence)
        }
        let layout = layout(version: version, snapshot: snapshot, container: window.container)
        var follower = Follower(stream: stream, id: RandomHex.digits(16), window: window, version: version,
                                contentSize: WireSize(layout.contentSize))
        // A reconnection: served from the log, or a snapshot because the log moved on (or the
        // id is of another epoch: a restart, a list made again).
        if lastEventID != nil { WebMetrics.resumed(replayed: missed != nil) }
        var sends: [Send] = []
        var sequence = windowSequence
        if let missed {
            for event in missed { sends.append((stream, event.name, epoch.wire(event.id), event.data)) }
            sequence += 1
            let update = WindowUpdate(layout: layout, rect: window.rect, held: [:]) { wireCell($0, in: snapshot).html }
            sends.append((stream, "window", epoch.wire(EventID(version: version, layout: sequence)),
                          EventData(WindowEvent.json(version: version, streamID: follower.id, window: window, layout: layout, update: update, reset: true))))
            follower.held = update.held
        } else {
            let cells = layout.cells(in: window.rect)
            for cell in cells { follower.held[cell.id] = WireFrame(cell.frame) }
            let json = snapshotEventJSON(version: version, streamID: follower.id, snapshot: snapshot, layout: layout,
                                         cells: cells.map { wireCell($0, in: snapshot) })
            sends.append((stream, "snapshot", epoch.wire(EventID(version: version, layout: sequence)), EventData(json)))
        }
        follower.signature = WindowUpdate.signature(of: follower.held)
        // Equal to what other streams opened at this viewport hold: one copy for all.
        follower.held = HeldWindows.shared.intern(follower.held, signature: follower.signature)
        // The headers and footers as this client now has them: the next apply compares with
        // these. (While nobody follows, applies record nothing, so without this the first
        // change after a stream opens would find no earlier HTML and send no update: a
        // header's count would stay stale until the change after.)
        let supplementaries = layout.supplementaryCells.map { ($0.id, wireCell($0, in: snapshot).html) }
        let count = state.withLock { state -> Int in
            state.windowSequence = sequence
            state.followers.insert(follower)
            for (id, html) in supplementaries { state.supplementaryHTML[id] = html }
            return state.followers.count
        }
        outbox.send(sends)
        // A stream that closed while its first event was built: its close handler found no
        // follower to forget, so it is forgotten here.
        if !stream.isOpen {
            state.withLock { _ = $0.followers.remove(stream) }
            return
        }
        demo.streamCountDidChange(count)
        reportWindows([(follower.id, follower.held)], snapshot: snapshot)
    }

    /// Tells a demo that observes windows what they hold now (outside the state lock).
    /// - Complexity: O(cells held · index lookup).
    func reportWindows(_ windows: [(stream: String, held: [String: WireFrame])], snapshot: Snapshot<String, String>) {
        guard demo.observesWindows else { return }
        for (stream, held) in windows {
            var items: [String] = []
            var last: Int?
            for id in held.keys {
                guard let position = snapshot.indexOfItem(id) else { continue }
                items.append(id)
                last = max(last ?? position, position)
            }
            demo.windowDidChange(WindowItems(stream: stream, items: items, lastPosition: last, itemCount: snapshot.numberOfItems))
        }
    }

    /// A closed stream's window is empty: a demo stops what it did for it (prefetches).
    func reportClosed(_ streams: [String]) {
        guard demo.observesWindows else { return }
        let count = dataSource.snapshot().numberOfItems
        for stream in streams { demo.windowDidChange(WindowItems(stream: stream, items: [], lastPosition: nil, itemCount: count)) }
    }

    /// The logged events after `id`, or `nil` when the client must start from a snapshot.
    private func missedEvents(after id: EventID, version: Int, state: State) -> [LoggedEvent]? {
        if id.version == version { return [] }
        guard let missed = state.log.events(after: EventID(version: id.version)) else { return nil }
        // A reloadData cannot be replayed as identifiers: start again.
        return missed.contains { $0.name != "changeset" } ? nil : missed
    }

    /// In the writer: the window's event is built outside the state lock.
    private func sendWindow(streamID: String, window: StreamWindow) -> Bool {
        let (version, snapshot) = dataSource.versionedSnapshot()
        guard var follower = state.withLock({ $0.followers.follower(streamID: streamID) }) else { return false }
        guard follower.window != window else { return true }
        // A new size may change the content size even when no held cell moves (a resize
        // while scrolled past the end): the client's scrollbar must follow, so it is told.
        let resized = follower.window.container != window.container
        follower.window = window
        sendWindow(to: follower, version: version, snapshot: snapshot, always: resized, measured: false)
        return true
    }

    /// In the writer: lays out `follower`'s window again and sends it a `window` event when
    /// anything it holds changed, or the content size it was last sent did (or `always`);
    /// `measured` marks one that follows measurements (the client keeps what the person looks
    /// at in place: docs/protocol.md).
    func sendWindow(to follower: Follower, version: Int, snapshot: Snapshot<String, String>, always: Bool, measured: Bool) {
        var follower = follower
        let window = follower.window
        let layout = layout(version: version, snapshot: snapshot, container: window.container)
        let update = WindowUpdate(layout: layout, rect: window.rect, held: follower.held) { wireCell($0, in: snapshot).html }
        let contentSize = WireSize(layout.contentSize)
        let changed = always || !update.cells.isEmpty || !update.left.isEmpty || !update.dropped.isEmpty
            || contentSize != follower.contentSize
        follower.held = update.held
        follower.signature = WindowUpdate.signature(of: update.held)
        follower.contentSize = contentSize
        let sequence = state.withLock { state -> Int? in
            guard state.followers.update(follower) else { return nil }  // closed meanwhile
            guard changed else { return nil }
            state.windowSequence += 1
            return state.windowSequence
        }
        guard let sequence else { return }
        let json = WindowEvent.json(version: version, streamID: follower.id, window: window, layout: layout, update: update,
                                    reset: false, measured: measured)
        outbox.send([(follower.stream, "window", epoch.wire(EventID(version: version, layout: sequence)), EventData(json))])
        reportWindows([(follower.id, update.held)], snapshot: snapshot)
    }
}
