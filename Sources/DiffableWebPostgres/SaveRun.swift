import DiffableWeb

/// A write queued on its list's save pipeline: what to save, the position it was made at, and
/// the receipt its writer waits on.
struct PendingSave: Sendable {
    var write: ListWrite
    var base: ListPosition
    var receipt: SaveReceipt
}

/// Writes of one list saved together by one statement: the first one's base, and one write
/// that adds what all of them added (``runs(_:)``).
struct SaveRun: Sendable {
    var base: ListPosition
    var write: ListWrite
    var receipts: [SaveReceipt]

    /// The queue cut into runs, in order. A write joins the run before it when it was made on
    /// that run's last write (its base is that write's version and epoch) and is of the same
    /// kind:
    /// - ordinary writes: their changes concatenated, the last one's version, epoch and state;
    /// - derived writes: the last one (each replaces the list's state; no changes are kept);
    /// - a checkpoint ends a run (its identifiers are the list after it: nothing may follow it
    ///   in the same statement, which sets the checkpoint's version as the list's base).
    static func runs(_ saves: [PendingSave]) -> [SaveRun] {
        var runs: [SaveRun] = []
        runs.reserveCapacity(1)
        for save in saves {
            if let last = runs.last, last.admits(save) {
                runs[runs.count - 1].append(save)
            } else {
                runs.append(SaveRun(base: save.base, write: save.write, receipts: [save.receipt]))
            }
        }
        return runs
    }

    /// Whether `save` continues this run (see ``runs(_:)``).
    private func admits(_ save: PendingSave) -> Bool {
        save.base == ListPosition(version: write.version, epoch: write.epoch) && save.write.epoch == write.epoch
            && write.checkpoint == nil && save.write.derived == write.derived
    }

    private mutating func append(_ save: PendingSave) {
        receipts.append(save.receipt)
        if save.write.derived {
            write = save.write
            return
        }
        write.changes += save.write.changes
        write.stateChanged = write.stateChanged || save.write.stateChanged
        (write.version, write.epoch, write.state, write.checkpoint) = (save.write.version, save.write.epoch, save.write.state, save.write.checkpoint)
    }
}
