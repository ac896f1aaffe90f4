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
    /// Where the session's lists are saved (`nil`: memory only).
    private let store: (any SessionStore)?
    /// The process's live copies of saved lists (shared by every session of a registry): a
    /// session brought back after an eviction takes its lists' live copies, if any.
    private let liveLists: LiveListTable
    private let logger: Logger
    /// What the session's lists hold, against its budget and the server's.
    let memory: MemoryAccount

    init(id: SessionID, shareID: SessionID, now: ContinuousClock.Instant, store: (any SessionStore)? = nil,
         liveLists: LiveListTable = LiveListTable(), memory: MemoryAccount = MemoryAccount(limit: 0, budget: nil),
         logger: Logger = Logger(label: "DiffableWeb")) {
        self.id = id
        self.shareID = shareID
        self.created = now
        self.store = store
        self.liveLists = liveLists
        self.memory = memory
        self.logger = logger
    }

    /// The session's list for a demo, made on first use: as the store has it (saved by a
    /// previous run of the server, or by another process on a shared store), or with its
    /// initial snapshot, saved before it is used. A saved list that is still live in this
    /// process (this session was evicted and brought back while a request still used it) is
    /// that live copy: one writer per list.
    /// - Throws: when the store cannot be read or written.
    func list(for descriptor: DemoDescriptor, renderer: Renderer, container: LayoutContainer, logCapacity: Int,
              heldLayouts: HeldLayouts? = nil) async throws -> LiveList {
        if let list = lists.withLock({ $0[descriptor.name] }), !list.isRetired { return list }
        let key = ListKey(session: id, demo: descriptor.name)
        guard let store else {
            return started(LiveList(descriptor: descriptor, renderer: renderer, container: container, logCapacity: logCapacity,
                                    heldLayouts: heldLayouts))
        }
        // One maker at a time, reading the store only when no copy is live (see LiveListTable).
        return try await liveLists.making(key) {
            if let live = liveLists.live(key) { return keep(live) }
            let storage = ListStorage(store: store, key: key, logger: logger) { [weak self] list in self?.forget(list) }
            let make = { (stored: StoredList?) in
                LiveList(descriptor: descriptor, renderer: renderer, container: container, logCapacity: logCapacity,
                         restoring: stored, storage: storage, heldLayouts: heldLayouts)
            }
            let stored: StoredList?
            do {
                stored = try await store.list(key)
            } catch let error as StoredListError {
                // A damaged row: the list starts afresh rather than show something wrong.
                logger.error("a saved list could not be read; it starts afresh", metadata: ["list": "\(key)", "error": "\(error)"])
                stored = nil
            } catch {
                throw ListStoreError.unavailable(String(describing: error))
            }
            var list = make(stored)
            if stored == nil, list.isStored {
                do {
                    if let winner = try await store.createList(key, list.storedForm) {
                        list = make(winner)  // another process made it first
                    }
                } catch {
                    throw ListStoreError.unavailable(String(describing: error))
                }
            }
            if list.isStored { liveLists.insert(list, as: key) }
            return started(list)
        }
    }

    /// Makes `list` this session's (unless another live one is there already) and starts it:
    /// saved first, so the demo's own writes (an outline's first apply, a publisher) come after.
    private func started(_ list: LiveList) -> LiveList {
        let (live, made) = lists.withLock { lists -> (LiveList, Bool) in
            if let existing = lists[list.name], !existing.isRetired { return (existing, false) }
            lists[list.name] = list
            return (list, true)
        }
        live.memory.attach(to: memory)
        if made { live.start() }
        return live
    }

    /// Keeps a list that is already live (and started) as this session's.
    private func keep(_ list: LiveList) -> LiveList {
        let live = lists.withLock { lists in
            if let existing = lists[list.name], !existing.isRetired { return existing }
            lists[list.name] = list
            return list
        }
        // A list of this session's before an eviction: charged to the session it is now.
        live.memory.attach(to: memory)
        return live
    }

    /// Forgets a retired list: the next use makes it again from the store.
    private func forget(_ list: LiveList) {
        lists.withLock { lists in
            if lists[list.name] === list { lists[list.name] = nil }
        }
    }

    /// The list of a demo if it exists already (never creates one).
    func existingList(named name: String) -> LiveList? { lists.withLock { $0[name] } }

    /// The lists that exist so far, by demo name.
    var existingLists: [String: LiveList] { lists.withLock { $0 } }

    var openStreamCount: Int { existingLists.values.reduce(0) { $0 + $1.openStreamCount } }

    func closeStreams() { for list in existingLists.values { list.closeStreams() } }
}
