import CompositionalLayout
import DiffableDataSources
import Foundation
import Logging
import MicroHTTP
import Synchronization

/// One demo's list in one session: its data source, the streams following it with their
/// windows, and the log of recent events.
///
/// # One writer, events after the write
/// Every change (an action, a script's write, a demo's own write, a stream that opens, a
/// window that moves) runs alone through ``writer``, the list's one serializer. A write gets a
/// ``ListTransaction``, the only handle to the data source while it runs; the data source's
/// observer only collects what each apply changed. Once the write has returned, outside every
/// lock of the data source's and ours, the updates become events (`+Publishing`): the logged
/// event, the change to save, and each stream's event. The store saves the change its own way
/// (``SessionStore/write(_:from:_:undo:)``), and the ``EventOutbox`` sends the events in
/// version order once it is saved. No demo code runs under a lock of ours.
///
/// # What an event costs
/// The identifiers of the change (shared by every stream, rendered once), plus, per group of
/// streams with the same viewport and held cells, the window: the cells of one screen and the
/// overscan, laid out by ``ListLayout`` without walking the list. See docs/protocol.md.
/// When the change is a shared step (`DataSourceUpdate.transition`: every session typing the
/// same letters), the identifiers, and for demos whose cells are the same in every session the
/// windows too, are made once for all the lists that make it (``TransitionCache``).
///
/// # Where things are
/// This file holds the list's state and how it is made. One file per concern extends it:
/// `+Reading` (reads and their caches), `+Writing` (a write, start to save), `+Publishing` (a
/// write's updates become events), `+Saving` (what a write saves, checkpoints, retiring),
/// `+Replication` (catching up with a shared store), `+Followers` (streams and their windows),
/// `+Layout` (cells with their HTML), `+WireJSON` (the events' JSON).
final class LiveList: Sendable {
    /// The demo's name: the list's key in its session and in the store.
    let name: String
    let demo: any Demo
    /// The demo, when its checkpoints keep its value (found once, not per write).
    let keepsValue: (any KeepsStateValue)?
    /// Whether the demo keeps a selection (found once: most lists have none, and a write of
    /// theirs asks nothing about it).
    let isSelectable: Bool
    let dataSource = DiffableDataSource<String, String>()
    let renderer: Renderer
    /// Tags this list's event ids, so that a client of another list's run resyncs.
    let epoch: ListEpoch
    /// Where the list is saved (`nil`: memory only, or a demo that keeps nothing).
    let storage: ListStorage?
    /// The one serializer of the list's writes.
    let writer = ListWriter()
    /// Events waiting for their writes' saves, sent in version order.
    let outbox = EventOutbox<Send>(deliver: LiveList.deliver)
    /// The layouts of the current version, by viewport.
    let layouts: LayoutCache
    /// The sizes browsers measured for self-sizing cells, by width (`POST …/measure`).
    let measurements = Mutex(MeasuredSizes())
    /// What the applies of the running write changed, in order (the data source's observer
    /// adds to it; the write takes it once its body has returned).
    let collected = Mutex<[DataSourceUpdate<String, String>]>([])
    /// What the saves so far left behind (the checkpoint policy, the state last saved).
    let saving = Mutex(SaveState())
    /// What the list holds in memory, charged to its session (see `+Memory`).
    let memory = ListMemory()

    typealias Follower = Followers.Follower

    struct State: Sendable {
        var log: EventLog
        var followers = Followers()
        /// The viewport of pages and of streams that name none (the last one reported).
        var container: LayoutContainer
        /// The newest `seq` applied per client, so a late keystroke never overwrites a newer one.
        var newestSeq: [String: Int] = [:]
        /// Window events since the current version (the `.n` of their ids).
        var windowSequence = 0
        /// The HTML each header or footer had at the last apply (to send only real changes).
        var supplementaryHTML: [String: String] = [:]
        /// `GET …/snapshot`'s body for one version: repeated reads cost a copy.
        /// (A reference: most lists are never read this way, and an idle list stays small.)
        var snapshotBody: SnapshotBody?
        /// The selection the events so far showed (a `changeset` carries it when it changed).
        var publishedSelection: ListSelection?
        /// Set once a save failed or another process replaced the list: it takes no more
        /// writes (its session makes it again from the store).
        var retired = false
    }

    /// `GET …/snapshot`'s body for one version of the list.
    final class SnapshotBody: Sendable {
        let version: Int
        let snapshot: Snapshot<String, String>
        let json: [UInt8]

        init(version: Int, snapshot: Snapshot<String, String>, json: [UInt8]) {
            self.version = version
            self.snapshot = snapshot
            self.json = json
        }
    }

    /// An event for one stream, built after its write and sent by the outbox.
    typealias Send = (stream: EventStream, name: String, id: String, data: EventData)

    let state: Mutex<State>

    /// A list with its demo's initial snapshot (version 1), or, with `restoring`, the list as
    /// it was saved (by a previous run of the server, or another process on a shared store):
    /// the same snapshot, version, epoch, demo state and recent events. A derived list
    /// (``StoredList/derived``) is computed again from its saved demo state.
    /// `heldLayouts`: where the list's layout cache says it holds layouts (the maintenance
    /// rounds drop them once idle).
    init(descriptor: DemoDescriptor, renderer: Renderer, container: LayoutContainer, logCapacity: Int,
         restoring stored: StoredList? = nil, storage: ListStorage? = nil, heldLayouts: HeldLayouts? = nil) {
        self.name = descriptor.name
        self.layouts = LayoutCache(held: heldLayouts)
        self.demo = descriptor.make()
        self.keepsValue = demo as? any KeepsStateValue
        self.isSelectable = demo.selection != nil
        self.renderer = renderer
        self.state = Mutex(State(log: EventLog(capacity: logCapacity), container: container))
        let demo = self.demo
        let restored = stored.flatMap { stored -> (Snapshot<String, String>, StoredList)? in
            guard demo.persistsList, stored.version >= 1 else { return nil }
            return Self.snapshot(of: stored, for: demo).map { ($0, stored) }
        }
        epoch = restored.map { ListEpoch(value: $0.1.epoch) } ?? ListEpoch.random()
        if let (_, stored) = restored {
            saving.withLock { $0.saved(state: stored.state, derived: stored.derived) }
        }
        self.storage = demo.persistsList ? storage : nil
        if let (snapshot, stored) = restored {
            dataSource.restore(snapshot, version: stored.version)
        } else {
            dataSource.apply(demo.initialSnapshot(), animatingDifferences: false)
        }
        // From here on every apply is a write's: the observer collects it for the write.
        dataSource.addObserver { [weak self] update in self?.collected.withLock { $0.append(update) } }
        // The list limits, for every write from here on, whoever makes it (``admitted(_:)``).
        dataSource.admission = { APILimits.sizeFailure(of: $0) }
        memory.setContents(demo.derivesList ? 0 : MemoryCost.of(dataSource.snapshot()))
        // A restored selection, against the list as it was restored.
        demo.reconcileSelection(with: [], snapshot: dataSource.snapshot())
        // Nobody can have missed the first apply (a first stream gets a snapshot): the log keeps
        // only its version, as the point replays start from; a restored list keeps its events.
        let first = dataSource.version
        let selection = demo.selection
        state.withLock { state in
            state.publishedSelection = selection
            let events = restored?.1.events.filter { $0.version <= first } ?? []
            if events.isEmpty {
                state.log.append(LoggedEvent(id: EventID(version: first), name: "origin", data: "{}"))
            } else {
                for event in events { state.log.append(LoggedEvent(id: EventID(version: event.version), name: event.name, data: event.data)) }
            }
        }
    }

    /// A saved list's snapshot: its identifiers, or, for a derived list, what its demo computes
    /// from the saved state (which the demo takes back first). `nil` when it cannot be read.
    static func snapshot(of stored: StoredList, for demo: any Demo) -> Snapshot<String, String>? {
        if stored.derived {
            demo.restore(state: stored.state)
            return demo.derivedSnapshot()
        }
        guard let snapshot = try? stored.snapshot() else { return nil }
        demo.restore(state: stored.state)
        return snapshot
    }

    /// Hands the demo its ``ListHandle`` (it may start writing: a publisher, image loads). Called
    /// once the list is in the store and in its session, so that no write comes first.
    func start() {
        demo.attach(ListHandle(self))
    }

    /// The list as it is saved when first made.
    var storedForm: StoredList {
        let (version, snapshot) = dataSource.versionedSnapshot()
        let derived = demo.derivesList
        return StoredList(demo: name, version: version, epoch: epoch.value,
                          sections: derived ? [] : StoredList.sections(of: snapshot), state: demo.persistentState(), derived: derived)
    }

    /// The updates collected since the last call (see ``collected``), oldest first.
    func takeCollected() -> [DataSourceUpdate<String, String>] {
        collected.withLock { updates in defer { updates.removeAll() }; return updates }
    }

    /// Whether the list is saved (a store is configured and the demo keeps its list).
    var isStored: Bool { storage != nil }

    /// Whether the list takes writes (see ``State/retired``).
    var isRetired: Bool { state.withLock { $0.retired } }

    /// Sends events to their streams (by the outbox, in order). A stream that closed is
    /// forgotten by its own close handler (``attach(_:window:lastEventID:)``).
    static func deliver(_ sends: [Send]) {
        for send in sends { _ = send.stream.send(event: send.name, id: send.id, data: send.data) }
    }
}
