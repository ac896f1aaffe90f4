import CompositionalLayout
import Logging
import Synchronization

/// One visitor (a browser's cookie, or a script that created or attached to it): one live
/// list per demo, created on first use. Sessions never share lists.
final class Session: Sendable {
    /// The secret in the browser's `HttpOnly` cookie; never shown in a page.
    let id: SessionID
    /// The public handle a script uses to attach (`/api/sessions/{shareID}`), shown in the
    /// page's "script this session" panel. Separate from `id`, so that showing it does not
    /// hand the cookie to any script that can read the page.
    let shareID: SessionID
    let created: ContinuousClock.Instant
    /// Empty until a demo is first used: a session that opened nothing costs a few hundred
    /// bytes, not its lists (when it was last seen is kept by the ``SessionStore``).
    private let lists = Mutex<[String: LiveList]>([:])
    /// Where the session's lists are saved, and the lists a previous run saved (taken back on
    /// first use, like any list).
    private let store: (any StateStore)?
    private let saved: [String: StoredList]
    private let logger: Logger

    init(id: SessionID, shareID: SessionID, now: ContinuousClock.Instant, store: (any StateStore)? = nil,
         saved: [String: StoredList] = [:], logger: Logger = Logger(label: "DiffableWeb")) {
        self.id = id
        self.shareID = shareID
        self.created = now
        self.store = store
        self.saved = saved
        self.logger = logger
    }

    /// The session's list for a demo, created on first use: with its initial snapshot, or as a
    /// previous run of the server saved it.
    func list(for descriptor: DemoDescriptor, renderer: Renderer, container: LayoutContainer, logCapacity: Int) -> LiveList {
        lists.withLock { lists in
            if let list = lists[descriptor.name] { return list }
            var persist: (@Sendable (StoredList) -> Void)?
            if let store {
                let (id, logger) = (self.id, self.logger)
                persist = { list in
                    do {
                        try store.saveList(list, session: id)
                    } catch {
                        logger.error("could not save a list", metadata: ["demo": "\(list.demo)", "error": "\(error)"])
                    }
                }
            }
            let list = LiveList(descriptor: descriptor, renderer: renderer, container: container, logCapacity: logCapacity,
                                restoring: saved[descriptor.name], persist: persist)
            lists[descriptor.name] = list
            return list
        }
    }

    /// The list of a demo if it exists already (never creates one).
    func existingList(named name: String) -> LiveList? { lists.withLock { $0[name] } }

    /// The lists that exist so far, by demo name.
    var existingLists: [String: LiveList] { lists.withLock { $0 } }

    var openStreamCount: Int { existingLists.values.reduce(0) { $0 + $1.openStreamCount } }

    func closeStreams() { for list in existingLists.values { list.closeStreams() } }
}
