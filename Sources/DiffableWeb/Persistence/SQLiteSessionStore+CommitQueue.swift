import Dispatch

extension SQLiteSessionStore {
    /// Writes waiting for the store's thread, in the order they were handed over, and when to
    /// commit them: the group commit's policy, as a value (its callers act on what it answers,
    /// ``Next``; tests drive it directly).
    ///
    /// # When a commit starts
    /// A commit has a cost of its own, whatever it carries (`BEGIN`, `COMMIT` and its WAL pages,
    /// the file locks, and waking the thread: a futex wake and a context switch, several
    /// microseconds on a virtual machine), so writes are committed in groups. A write handed
    /// over while other writes are still on their way (announced,
    /// ``SessionStore/announceWrite()``, and not yet settled: queued at their list's writer or
    /// running) is **held while more of them are still to come than are waiting**: once at least
    /// half of those on their way wait, they commit. Holding for all of them (as until session
    /// 15) made a group that arrived together commit together, be answered together and come
    /// back together: each round the cooperative threads waited, idle, for the whole group's
    /// commit, and the store's thread for the whole group's writes. Committing at the half, the
    /// first half commits while the second is still being written, and the two halves keep
    /// apart (measured, 16 clients writing one list of 1,000 items: ~10.9k → ~12.1k writes/s,
    /// medians of five alternating runs; docs/benchmarks-history.md, session 15).
    ///
    /// A write with nothing else on its way (one person typing) is committed at once, unless the
    /// last batch was larger (``target``): writers that committed together tend to come back
    /// together (clients answered at once send their next requests at once), so the queue holds
    /// until half as many are waiting again. A hold that ran out lowers the target to what came.
    ///
    /// # Bounds
    /// Writes are held at most ``maximumHold`` (a deadline the store arms, ``Next/armDeadline``):
    /// a write stuck behind something slow of its own list (a large list's stream opening)
    /// delays the others once by that much; until the writes on their way then have settled,
    /// nothing is held again. At most ``maximumBatch`` writes are held.
    struct CommitQueue {
        struct Waiting {
            var key: ListKey
            var write: ListWrite
            /// The write's receipt, and those of the derived writes it replaced.
            var receipts: [SaveReceipt]
        }
        /// What the caller does next.
        enum Next: Equatable {
            case nothing
            /// Queue a commit job on the store's thread (it commits everything waiting).
            case commit
            /// Call ``deadlinePassed(now:)`` at `deadline` (none is armed yet).
            case armDeadline(DispatchTime)
        }

        static let maximumBatch = 256

        let maximumHold: DispatchTimeInterval
        var waiting: [Waiting] = []
        /// Where each list's last waiting write is in `waiting`.
        var last: [ListKey: Int] = [:]
        /// Whether a commit job is queued on the store's thread (or running).
        var scheduled = false
        /// Lists whose write failed: their later writes build on it and fail too, until the
        /// list is read again (``list(_:)``).
        var failed: Set<ListKey> = []
        /// Writes announced so far, and those settled.
        private(set) var announced = 0, settled = 0
        /// Since when the waiting writes are held (`nil`: not held).
        private(set) var heldSince: DispatchTime?
        /// Whether a deadline is armed (one at a time: it re-arms itself while writes are held).
        private(set) var deadlineArmed = false
        /// After a deadline passed with writes held: nothing is held until `settled` reaches this.
        private(set) var holdAfter = 0
        /// How many writes the last commit took: writes are held until half as many wait.
        private(set) var target = 1

        init(maximumHold: DispatchTimeInterval) { self.maximumHold = maximumHold }

        /// Writes on their way: announced, not yet settled.
        var inFlight: Int { announced - settled }

        mutating func announce() { announced += 1 }

        /// Adds `write`, handed over by a write that is itself on its way (its settle follows);
        /// a derived write replaces its list's last waiting write when that is derived too (both
        /// are the list's whole state: only the later one needs saving).
        mutating func add(_ key: ListKey, _ write: ListWrite, _ receipt: SaveReceipt, now: DispatchTime) -> Next {
            if write.derived, let index = last[key], waiting[index].write.derived {
                waiting[index].write = write
                waiting[index].receipts.append(receipt)
            } else {
                last[key] = waiting.count
                waiting.append(Waiting(key: key, write: write, receipts: [receipt]))
            }
            // The write handing this over is on its way still (when it was announced): others are
            // those beyond it.
            return decide(others: inFlight - 1, now: now)
        }

        mutating func settle(now: DispatchTime) -> Next {
            settled += 1
            return decide(others: inFlight, now: now)
        }

        /// Everything waiting, which is then no longer waiting (a later write cannot replace it).
        mutating func take() -> [Waiting] {
            defer { (waiting, last, heldSince) = ([], [:], nil) }
            target = min(max(1, waiting.count), Self.maximumBatch)
            return waiting
        }

        /// The commit job ended: commit again what arrived meanwhile, or hold it.
        mutating func committed(now: DispatchTime) -> Next {
            scheduled = false
            return decide(others: inFlight, now: now)
        }

        /// The armed deadline: commits what has been held for ``maximumHold`` (and stops holding
        /// for the writes on their way now, one of which is slow), or arms the next one.
        mutating func deadlinePassed(now: DispatchTime) -> Next {
            deadlineArmed = false
            guard let heldSince, !scheduled, !waiting.isEmpty else { return .nothing }
            let due = (heldSince + maximumHold)
            guard now >= due else {
                deadlineArmed = true
                return .armDeadline(due)
            }
            holdAfter = announced
            return start()
        }

        private mutating func decide(others: Int, now: DispatchTime) -> Next {
            guard !scheduled, !waiting.isEmpty else { return .nothing }
            // Held while more are still to come than wait, or (nothing to come) until half as
            // many wait as the last batch took.
            let forOthers = others > waiting.count && settled >= holdAfter
            let forTarget = waiting.count * 2 < target
            guard forOthers || forTarget, waiting.count < Self.maximumBatch else { return start() }
            if heldSince == nil { heldSince = now }
            guard !deadlineArmed, let heldSince else { return .nothing }
            deadlineArmed = true
            return .armDeadline((heldSince + maximumHold))
        }

        private mutating func start() -> Next {
            scheduled = true
            heldSince = nil
            return .commit
        }
    }
}
