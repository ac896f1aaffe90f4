import DiffableDataSources
import Synchronization

// A ``BackgroundWork`` list's jobs: asked for after every change to the list, its watchers or
// their windows, started and cancelled by id. The jobs table and the watchers are the
// framework's, behind its lock; list code sees only the declaration and the updater.
extension WebListDemo {
    /// The jobs running, and what they depend on.
    struct Work {
        var handle: ListHandle?
        var watchers = 0
        /// Each stream's window (a closed stream reports an empty one).
        var windows: [String: WindowItems] = [:]
        var running: [String: (task: Task<Void, Never>, cancellation: JobCancellation)] = [:]
    }

    var doesBackgroundWork: Bool { List.self is any BackgroundWork.Type }

    func attach(_ list: ListHandle) {
        guard doesBackgroundWork else { return }
        work.withLock { $0.handle = list }
        reconcileJobs()
    }

    var observesWindows: Bool { doesBackgroundWork }

    func windowDidChange(_ window: WindowItems) {
        guard doesBackgroundWork else { return }
        work.withLock { work in
            if window.items.isEmpty && window.lastPosition == nil { work.windows[window.stream] = nil } else { work.windows[window.stream] = window }
        }
        reconcileJobs()
    }

    func streamCountDidChange(_ count: Int) {
        guard doesBackgroundWork else { return }
        work.withLock { work in
            work.watchers = count
            if count == 0 { work.windows.removeAll() }
        }
        reconcileJobs()
    }

    /// Starts the jobs the list declares and does not run, and cancels those it no longer declares.
    func reconcileJobs() {
        guard let list = current as? any BackgroundWork else { return }
        let (handle, activity) = work.withLock { work -> (ListHandle?, ListActivity<String>) in
            var visible = Set<String>()
            var last: Int?
            var count = 0
            for window in work.windows.values {
                visible.formUnion(window.items)
                if let position = window.lastPosition { last = max(last ?? position, position) }
                count = window.itemCount
            }
            return (work.handle, ListActivity(watchers: work.watchers, visibleItems: visible, lastVisiblePosition: last, itemCount: count))
        }
        guard let handle, handle.isAlive else { return }
        let wanted = Self.jobs(of: list, activity)
        let ids = Set(wanted.map(\.id))
        let cancelled = work.withLock { work -> [JobCancellation] in
            var cancelled: [JobCancellation] = []
            for (id, job) in work.running where !ids.contains(id) {
                job.task.cancel()
                cancelled.append(job.cancellation)
                work.running[id] = nil
            }
            for job in wanted where work.running[job.id] == nil {
                let cancellation = JobCancellation()
                let updater = updater(handle, cancellation)
                let id = job.id
                let task = Task { [weak self] in
                    await job.body(updater)
                    self?.work.withLock { work in
                        if work.running[id]?.cancellation === cancellation { work.running[id] = nil }
                    }
                }
                work.running[id] = (task, cancellation)
            }
            return cancelled
        }
        for cancellation in cancelled { cancellation.cancel() }
    }

    /// The list's jobs, typed for this list (a list's ``ListActivity`` has its identifiers).
    private static func jobs<Working: BackgroundWork>(of list: Working, _ activity: ListActivity<String>) -> [ListJob<List>] {
        let typed = ListActivity<Working.ItemID>(watchers: activity.watchers, visibleItems: Set(activity.visibleItems.compactMap(Working.ItemID.init)),
                                                 lastVisiblePosition: activity.lastVisiblePosition, itemCount: activity.itemCount)
        return list.jobs(typed) as? [ListJob<List>] ?? []
    }

    private func updater(_ handle: ListHandle, _ cancellation: JobCancellation) -> ListUpdater<List> {
        ListUpdater(run: { [weak self] animated, body in
            guard let self else { return false }
            let outcome = JobCancellation()  // set when the write applied
            let wrote = await handle.write { transaction in
                guard !cancellation.flag.load(ordering: .acquiring) else { return }
                if self.applyJobWrite(animated: animated, body, on: transaction) { outcome.cancel() }
            }
            return wrote && outcome.flag.load(ordering: .acquiring)
        }, cancelled: cancellation)
    }

    /// A job's write, as an action's: on a copy of the value, the items typed, the copy kept
    /// once applied; throwing leaves both as they were.
    private func applyJobWrite(animated: Bool, _ body: (inout List, inout Snapshot<List.SectionID, List.ItemID>) throws -> Void,
                               on transaction: ListTransaction) -> Bool {
        var changed = current
        do {
            _ = try transaction.update(animatingDifferences: animated) { (snapshot: inout Snapshot<String, String>) throws(ActionError) in
                try Self.mutate(&changed, snapshot: &snapshot) { list, typed throws(ActionError) in
                    do { try body(&list, &typed) } catch let error as ActionError { throw error } catch let error as SnapshotError {
                        throw .snapshot(error)
                    } catch { throw .unprocessable(code: "job_failed", message: "\(error)") }
                }
            }
        } catch {
            return false
        }
        update(changed)
        return true
    }
}
