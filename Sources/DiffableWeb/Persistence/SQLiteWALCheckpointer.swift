import Synchronization

/// WAL checkpoints on a thread and connection of their own, not in the store thread's commits.
///
/// SQLite checkpoints its WAL (copies its pages into the database file, so the WAL can start
/// over) inside the commit that takes it past 1,000 pages, on the committing thread: on the
/// operations route at 10,000 items that held the store's thread 5–7 ms four or five times a
/// second, and every write waiting for a group commit with it. Here the writer's connection
/// reports the WAL's size after each commit (``SQLiteConnection/onCommit(walPages:)``), and past
/// ``pages`` a passive checkpoint copies the WAL on this thread while the writer goes on (it
/// takes no lock a writer needs).
///
/// The WAL starts over only when a write transaction begins with every frame copied, which a
/// checkpoint running beside a steady writer never quite reaches (frames keep arriving while it
/// copies). So once this thread has copied all but the last ``catchUp`` frames, the writer's
/// next commit copies those few itself, and its next transaction starts the WAL over. Past
/// ``inlineAfter`` pages (64 MiB of 4 KiB pages) the writer checkpoints in its commit whatever
/// is left, as SQLite would: the WAL stays bounded.
final class SQLiteWALCheckpointer: Sendable {
    /// SQLite's own threshold (`wal_autocheckpoint`'s default).
    static let pages = 1_000
    /// Frames left after this thread's checkpoint that the writer copies itself.
    static let catchUp = 256
    static let inlineAfter = 16_000

    private let database: SQLiteDatabase
    private let requested = Atomic(false)
    /// How many frames this thread's last checkpoint left in the database file (0: none since
    /// the writer's last).
    private let copied = Atomic(0)
    /// Checkpoints run on this thread, and in the writer's commits: small catch-ups and full
    /// ones past ``inlineAfter`` (tests read them).
    let checkpoints = Atomic(0), catchUps = Atomic(0), inlineCheckpoints = Atomic(0), failures = Atomic(0)

    /// Opens a connection of its own to the database at `path`, which is in WAL mode.
    init(path: String) throws {
        database = try SQLiteDatabase(path: path, name: "diffable-wal")
        // A connection knows the file is in WAL mode once it has read it (until then a
        // checkpoint does nothing: SQLite reports -1 frames).
        try database.execute("PRAGMA journal_mode = WAL;")
    }

    /// The writer committed, leaving `walPages` in the WAL (its thread, in the commit).
    func committed(walPages: Int, on writer: SQLiteConnection) {
        guard walPages >= Self.pages else { return }
        let copiedHere = copied.load(ordering: .acquiring)
        let catchingUp = copiedHere > 0 && walPages - copiedHere <= Self.catchUp
        if catchingUp || walPages >= Self.inlineAfter {
            do { try writer.checkpointWAL() } catch { failures.add(1, ordering: .relaxed) }
            copied.store(0, ordering: .releasing)
            if catchingUp { catchUps.add(1, ordering: .relaxed) } else { inlineCheckpoints.add(1, ordering: .relaxed) }
            return
        }
        guard !requested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        database.submit { [self] connection in
            do {
                copied.store(try connection.checkpointWAL().copied, ordering: .releasing)
            } catch {
                failures.add(1, ordering: .relaxed)
            }
            checkpoints.add(1, ordering: .relaxed)
            requested.store(false, ordering: .releasing)
        }
    }
}
