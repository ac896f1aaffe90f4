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
        var running: [String: RunningJob] = [:]
        /// Job writes waiting for the list's writer: they are applied together, in one write
        /// and one event (loads that finish together show together).
        var pending: [PendingWrite] = []
        var flushScheduled = false
        /// Whether an ``ExpandableOutline``'s outline was applied to the data source.
        var outlineConfigured = false
    }

    struct RunningJob {
        let task: Task<Void, Never>
        let cancellation: JobCancellation
        let onCancel: (@Sendable (inout List) -> Void)?
    }

    struct PendingWrite {
        let animated: Bool
        let body: @Sendable (inout List, inout Snapshot<List.SectionID, List.ItemID>) throws -> Void
        let cancellation: JobCancellation
        let done: CheckedContinuation<Bool, Never>
    }

    var doesBackgroundWork: Bool { registration.doesBackgroundWork }

    /// The ids of the jobs running now. Jobs are started and cancelled synchronously with the
    /// change that asks for it (an action's write, a stream opening or closing), so a test can
    /// read here that no job runs, instead of waiting to see that none wrote.
    var runningJobIDs: Set<String> { work.withLock { Set($0.running.keys) } }

    func attach(_ list: ListHandle) {
        if hasOutline { attachOutline(list) }
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

    /// Starts the jobs the list declares and does not run, and cancels those it no longer
    /// declares. One at a time: a reconcile decides from the state it read, and a later one
    /// must not be undone by an earlier one's older view.
    func reconcileJobs() {
        reconciling.withLock { _ in reconcileNow() }
    }

    private func reconcileNow() {
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
        let cancelled = work.withLock { work -> [RunningJob] in
            var cancelled: [RunningJob] = []
            for (id, job) in work.running where !ids.contains(id) {
                job.task.cancel()
                cancelled.append(job)
                work.running[id] = nil
            }
            let new = wanted.filter { work.running[$0.id] == nil }.map { (job: $0, cancellation: JobCancellation()) }
            let starting = new.compactMap { new in new.job.onStart.map { (note: $0, cancellation: new.cancellation) } }
            // The starting jobs' notes, in one state-only write that each job waits for.
            let started = starting.isEmpty ? nil : Task {
                await handle.write { _ in
                    var changed = self.current
                    for (note, cancellation) in starting where !cancellation.flag.load(ordering: .acquiring) { note(&changed) }
                    self.update(changed)
                }
            }
            for (job, cancellation) in new {
                let updater = updater(handle, cancellation)
                let id = job.id
                let task = Task { [weak self] in
                    _ = await started?.value
                    await job.body(updater)
                    self?.work.withLock { work in
                        if work.running[id]?.cancellation === cancellation { work.running[id] = nil }
                    }
                }
                work.running[id] = RunningJob(task: task, cancellation: cancellation, onCancel: job.onCancel)
            }
            return cancelled
        }
        for job in cancelled { job.cancellation.cancel() }
        let notes = cancelled.compactMap(\.onCancel)
        if !notes.isEmpty {
            Task {
                await handle.write { _ in
                    var changed = self.current
                    for note in notes { note(&changed) }
                    self.update(changed)
                }
            }
        }
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
            return await withCheckedContinuation { done in
                let schedule = work.withLock { work -> Bool in
                    work.pending.append(PendingWrite(animated: animated, body: body, cancellation: cancellation, done: done))
                    defer { work.flushScheduled = true }
                    return !work.flushScheduled
                }
                if schedule { Task { await self.flush(handle) } }
            }
        }, cancelled: cancellation)
    }

    /// Applies the job writes waiting, in one write of the list: each on the state and items
    /// the one before left (a write that throws, or whose job was cancelled, is left out), then
    /// one apply, animated if one of them asked. Items left as they were are not applied (no
    /// version, no event): only the state changes.
    private func flush(_ handle: ListHandle) async {
        let outcome = Mutex<[Bool]>([])
        let batch = Mutex<[PendingWrite]>([])
        let wrote = await handle.write { transaction in
            let writes = self.work.withLock { work in
                work.flushScheduled = false
                defer { work.pending.removeAll() }
                return work.pending
            }
            batch.withLock { $0 = writes }
            var changed = self.current
            let before = transaction.snapshot()
            var snapshot = before
            var results: [Bool] = []
            for write in writes {
                guard !write.cancellation.flag.load(ordering: .acquiring) else {
                    results.append(false)
                    continue
                }
                var (list, items) = (changed, snapshot)
                do {
                    try Self.mutate(&list, snapshot: &items) { list, typed throws(ActionError) in
                        do { try write.body(&list, &typed) } catch let error as ActionError { throw error } catch let error as SnapshotError {
                            throw .snapshot(error)
                        } catch { throw .unprocessable(code: "job_failed", message: "\(error)") }
                    }
                    (changed, snapshot) = (list, items)
                    results.append(true)
                } catch {
                    results.append(false)
                }
            }
            outcome.withLock { $0 = results }
            guard results.contains(true) else { return }
            self.update(changed)
            if WireIdentifiers.changes(snapshot, from: before) {
                transaction.apply(snapshot, animatingDifferences: writes.contains { $0.animated })
            }
        }
        // Answered once the write is over: a write the list's limits refused wrote nothing.
        let writes = batch.withLock { $0 }
        let results = outcome.withLock { $0 }
        for (index, write) in writes.enumerated() {
            write.done.resume(returning: wrote && index < results.count && results[index])
        }
        // A list that went never ran the write: its waiting writes are answered `false`.
        if !wrote {
            let stranded = work.withLock { work in
                work.flushScheduled = false
                defer { work.pending.removeAll() }
                return work.pending
            }
            for write in stranded { write.done.resume(returning: false) }
        }
    }
}
