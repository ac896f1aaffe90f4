import CompositionalLayout
import DiffableDataSources
import Foundation
import Logging
import MicroHTTP
import Synchronization

/// One demo's list in one session: its data source, the streams following it with their
/// windows, and the log of recent events.
///
/// # One writer
/// Every change — an action, an API write, a stream that opens, a window that moves — runs
/// alone through ``writer``, the list's one serialized writer (an async gate: a waiting writer
/// suspends, it does not park a thread). The data source is the one source of truth for the
/// snapshot and its version; nothing here keeps a copy. An apply arrives in ``didApply(_:)``,
/// which builds each stream's event under the state lock and sends after releasing it: the
/// writer gate keeps events in version order.
///
/// # What an event costs
/// The identifiers of the change (shared by every stream, rendered once), plus, per group of
/// streams with the same viewport and held cells, the window: the cells of one screen and the
/// overscan, laid out by ``ListLayout`` without walking the list. See docs/protocol.md.
/// When the change is a shared step (`DataSourceUpdate.transition`: every session typing the
/// same letters), the identifiers, and for demos whose cells are the same in every session the
/// windows too, are made once for all the lists that make it (``TransitionCache``); a stream
/// then costs its event's head and copies of shared bytes (`SharedEventBytes`).
///
/// # Where things are
/// This file holds the list's state and how it is made. One file per concern extends it:
/// `+Reading` (reads and their caches), `+Writing` (the write gate), `+Outbox` (events in
/// version order once saved, and their delivery), `+Saving` (what a write saves, checkpoints,
/// deferred saves, retiring), `+Replication` (catching up with a shared store), `+Followers`
/// (streams and their windows), `+Events` (an apply becomes events), `+Layout` (the layout
/// cache and cells), `+WireJSON` (the events' JSON).
final class LiveList: Sendable {
    let descriptor: DemoDescriptor
    let demo: any Demo
    let dataSource = DiffableDataSource<String, String>()
    let renderer: Renderer
    /// Tags this list's event ids, so that a client of another list's run resyncs.
    let epoch: ListEpoch
    /// Where the list is saved (`nil`: memory only, or a demo that keeps nothing).
    let storage: ListStorage?
    /// Changes applied but not yet saved, and the events held back until they are.
    let pending = Mutex(PendingWrites())
    /// Set by a write while it runs: events wait for the save (``write(viewOnly:_:)``).
    let holdingEvents = Atomic(false)
    /// Set while changes another process made are applied: they are saved already.
    let replicating = Atomic(false)
    /// Set when the running write applied a change of its own (not a catch-up).
    let applied = Atomic(false)
    /// Set once a save failed or another process replaced the list: it takes no more writes
    /// (its session makes it again from the store).
    let retired = Atomic(false)
    /// The one serialized writer (see the type's documentation).
    let writer = AsyncGate()

    /// A stream and what its client holds.
    struct Follower: Sendable {
        let stream: EventStream
        let id: String
        var window: StreamWindow
        var held: [String: WireFrame] = [:]
        var signature = 0
        /// The newest version the client has; older events are not sent to it.
        var version: Int
    }

    /// Events waiting for their changes to be saved, in the order they were made.
    struct Outbox: Sendable {
        var entries: [(ticket: Int, sends: [Send], ready: Bool)] = []
        var next = 0
    }
    let outbox = Mutex(Outbox())

    /// Changes applied since the last save, and (while a write runs) its events.
    struct PendingWrites: Sendable {
        var changes: [StoredChange] = []
        var sends: [Send] = []
        /// Changeset bytes since the last checkpoint (see ``takePendingWrite()``).
        var bytesSinceCheckpoint = 0
        var checkpointDue = false
        /// The demo state last saved (`nil`: unknown, save it).
        var savedState: [String: String]?
    }

    struct State: Sendable {
        var log: EventLog
        var followers: [ObjectIdentifier: Follower] = [:]
        var byStreamID: [String: ObjectIdentifier] = [:]
        /// The viewport of pages and of streams that name none (the last one reported).
        var container: LayoutContainer
        /// The newest `seq` applied per client, so a late keystroke never overwrites a newer one.
        var newestSeq: [String: Int] = [:]
        /// Layouts of the current version, by viewport.
        var layouts: [LayoutContainer: ListLayout] = [:]
        var layoutsVersion = -1
        /// Window events since the current version (the `.n` of their ids).
        var windowSequence = 0
        /// The HTML each header or footer had at the last apply (to send only real changes).
        var supplementaryHTML: [String: String] = [:]
        /// `GET …/snapshot`'s body for one version: repeated reads cost a copy.
        var snapshotBody: (version: Int, json: [UInt8])?
    }

    /// An event for one stream, built under the state lock and sent outside it.
    typealias Send = (stream: EventStream, name: String, id: String, data: EventData)

    let state: Mutex<State>
    /// Off while the initial snapshot is applied: nobody follows the list yet, so no event is built.
    let publishing = Atomic(false)

    /// A list with its demo's initial snapshot (version 1), or, with `restoring`, the list as
    /// it was saved (by a previous run of the server, or another process on a shared store):
    /// the same snapshot, version, epoch, demo state and recent events.
    init(descriptor: DemoDescriptor, renderer: Renderer, container: LayoutContainer, logCapacity: Int,
         restoring stored: StoredList? = nil, storage: ListStorage? = nil) {
        self.descriptor = descriptor
        self.demo = descriptor.make()
        self.renderer = renderer
        self.state = Mutex(State(log: EventLog(capacity: logCapacity), container: container))
        let demo = self.demo
        let restored = stored.flatMap { stored -> (Snapshot<String, String>, StoredList)? in
            guard demo.persistsList, stored.version >= 1, let snapshot = try? stored.snapshot() else { return nil }
            demo.restore(state: stored.state)
            return (snapshot, stored)
        }
        epoch = restored.map { ListEpoch(value: $0.1.epoch) } ?? ListEpoch.random()
        if let (_, stored) = restored { pending.withLock { $0.savedState = stored.state } }
        self.storage = demo.persistsList ? storage : nil
        dataSource.addObserver { [weak self] update in self?.didApply(update) }
        if let (snapshot, stored) = restored {
            dataSource.restore(snapshot, version: stored.version)
        } else {
            dataSource.apply(demo.initialSnapshot(), animatingDifferences: false)
        }
        // The list limits, for every write from here on, whoever makes it (``admitted(_:)``).
        dataSource.admission = { APILimits.sizeFailure(of: $0) }
        publishing.store(true, ordering: .releasing)
        // Nobody can have missed the first apply (a first stream gets a snapshot): the log keeps
        // only its version, as the point replays start from; a restored list keeps its events.
        let first = dataSource.version
        state.withLock { state in
            state.log = EventLog(capacity: logCapacity)
            let events = restored?.1.events.filter { $0.version <= first } ?? []
            if events.isEmpty {
                state.log.append(LoggedEvent(id: EventID(version: first), name: "origin", data: "{}"))
            } else {
                for event in events { state.log.append(LoggedEvent(id: EventID(version: event.version), name: event.name, data: event.data)) }
            }
        }
    }

    /// Hands the demo its ``ListHandle`` (it may start writing: a publisher, image loads). Called
    /// once the list is in the store and in its session, so that no write comes first.
    func start() {
        demo.attach(ListHandle(self))
    }

    /// The list as it is saved when first made.
    var storedForm: StoredList {
        let (version, snapshot) = dataSource.versionedSnapshot()
        return StoredList(demo: descriptor.name, version: version, epoch: epoch.value,
                          sections: StoredList.sections(of: snapshot), state: demo.persistentState())
    }

    /// Whether the list is saved (a store is configured and the demo keeps its list).
    var isStored: Bool { storage != nil }

    /// Whether the list takes writes (see ``retired``).
    var isRetired: Bool { retired.load(ordering: .acquiring) }
}
