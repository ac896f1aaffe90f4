import DiffableDataSources
import Synchronization

/// A list that changes when no request asks: a publisher's timer, an image load that finishes,
/// the next page of a paginated list. It declares the work that should be running, given its
/// state and who watches, as SwiftUI's `task(id:)` does: the framework starts each job whose id
/// appears, cancels each whose id is gone, and asks again after every change to the list, to
/// its watchers or to their windows. A job writes through its ``ListUpdater``, one write at a
/// time with everything else, so list code needs no lock and keeps no `Task`.
///
/// ```swift
/// func jobs(_ activity: ListActivity<String>) -> [ListJob<Self>] {
///     guard activity.watchers > 0, !paused else { return [] }   // only while someone watches
///     return [ListJob("publisher") { list in
///         while await list.sleep(for: .seconds(2)) {
///             await list.update { state, items in try state.publish(&items) }
///         }
///     }]
/// }
/// ```
public protocol BackgroundWork: WebList {
    /// The jobs that should run now, each by an id stable while it should keep running.
    func jobs(_ activity: ListActivity<ItemID>) -> [ListJob<Self>]
}

/// Who watches a list, and what they see: a ``BackgroundWork`` list's jobs depend on it.
public struct ListActivity<ItemID: Hashable & Sendable>: Sendable {
    /// The event streams open on the list (tabs following it).
    public var watchers: Int
    /// The items in the watchers' windows (each viewport and a screen above and below it), in no order.
    public var visibleItems: Set<ItemID>
    /// The furthest position any window reaches (over all sections), or `nil` when none shows an item.
    public var lastVisiblePosition: Int?
    /// The items in the list.
    public var itemCount: Int
}

/// One job of a ``BackgroundWork`` list: an id, and what it does with the list's updater. It
/// runs as a task the framework cancels when the list stops declaring it, or goes.
public struct ListJob<List: WebList>: Sendable {
    public let id: String
    let body: @Sendable (ListUpdater<List>) async -> Void
    let onStart: (@Sendable (inout List) -> Void)?
    let onCancel: (@Sendable (inout List) -> Void)?

    /// - Parameters:
    ///   - id: stable while the job should keep running (`"image p001"`).
    ///   - onStart: what the state notes when the job starts ("loading", a counter): the jobs
    ///     that start together note it in one state-only write, before any of them runs.
    ///   - onCancel: what the state notes when the list stops declaring the job while it runs
    ///     (a load that was cancelled): a state-only write, made soon after. A job that
    ///     finished its work is usually no longer declared either, so check the state ("still
    ///     loading?") before counting it.
    ///   - body: the work, writing through its ``ListUpdater``; cancelled when the list stops
    ///     declaring the job.
    public init(_ id: String, onStart: (@Sendable (inout List) -> Void)? = nil, onCancel: (@Sendable (inout List) -> Void)? = nil,
                _ body: @escaping @Sendable (ListUpdater<List>) async -> Void) {
        self.id = id
        self.onStart = onStart
        self.onCancel = onCancel
        self.body = body
    }
}

/// A job's way to change its list: writes run in the list's one writer, in order with actions
/// and scripts, and none runs once the job was cancelled.
public struct ListUpdater<List: WebList>: Sendable {
    let run: @Sendable (_ animated: Bool, _ body: @escaping @Sendable (inout List, inout Snapshot<List.SectionID, List.ItemID>) throws -> Void) async -> Bool
    let cancelled: JobCancellation

    /// Changes the list's state and items as an action does, applied (animated unless asked
    /// otherwise) and streamed to every watcher. Throwing leaves both as they were.
    /// - Returns: `false` when nothing was written: the job was cancelled (a pause won the
    ///   race), the list is gone, `body` threw, or the list's limits refused the change.
    @discardableResult
    public func update(animatingDifferences: Bool = true,
                       _ body: @escaping @Sendable (inout List, inout Snapshot<List.SectionID, List.ItemID>) throws -> Void) async -> Bool {
        guard !isCancelled else { return false }
        return await run(animatingDifferences, body)
    }

    /// Waits `duration`; `false` when the job was cancelled meanwhile (stop then).
    public func sleep(for duration: Duration) async -> Bool {
        try? await Task.sleep(for: duration)
        return !isCancelled
    }

    /// Whether the list stopped declaring this job, or went.
    public var isCancelled: Bool { cancelled.flag.load(ordering: .acquiring) || Task.isCancelled }
}

/// Set once when a job is cancelled, read by its writes (which run on the list's writer, not
/// in the job's task).
final class JobCancellation: Sendable {
    let flag = Atomic(false)

    func cancel() { flag.store(true, ordering: .releasing) }
}
