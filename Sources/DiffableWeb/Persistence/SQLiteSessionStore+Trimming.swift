// A list's changes before its checkpoint are deleted a chunk at a time, with the group commits
// that follow the checkpoint, not all in the checkpoint's own commit.
//
// A checkpoint makes every change before it, but the last few kept for replay, unneeded. At
// 10,000 items a checkpoint comes every ~8,000 changes (its cost is spread over the list's own
// size), and deleting them in its commit held the store's thread, and every write waiting for
// it, 88–147 ms (measured on the operations route). Deleted in chunks of `chunk` rows with the
// following commits, each pays about a millisecond. The rows still waiting are never read
// (``list(_:)`` reads from the checkpoint's version less the replay log), so a process that
// stops before they are gone leaves rows the list's next checkpoint deletes.
extension SQLiteSessionStore {
    /// Rows a commit deletes at most per list waiting to be trimmed.
    static let trimChunk = 128
    /// Lists a commit trims at most.
    static let trimListsPerCommit = 4

    /// Marks `key`'s changes up to `version` for deletion (a checkpoint at `version` +
    /// ``eventLogCapacity``). Called on the store's thread once the checkpoint is committed.
    func trim(_ key: ListKey, through version: Int) {
        pendingTrims.withLock { $0[key] = max($0[key] ?? version, version) }
    }

    /// Deletes a chunk of each of a few lists' marked changes, in the caller's transaction (a
    /// group commit's), and forgets the lists that have nothing left to delete.
    func trimChunk(on connection: SQLiteConnection) throws {
        let due = pendingTrims.withLock { Array($0.prefix(Self.trimListsPerCommit)) }
        for (key, version) in due {
            // The oldest `trimChunk` versions up to `version` (a list's versions are consecutive).
            let deleted = try connection.query("""
                DELETE FROM changes WHERE session_id = ?1 AND demo = ?2
                AND version <= min(?3, (SELECT min(version) FROM changes WHERE session_id = ?1 AND demo = ?2) + ?4 - 1)
                RETURNING 1
                """, [.text(key.session.value), .text(key.demo), .integer(version), .integer(Self.trimChunk)]).count
            if deleted < Self.trimChunk {
                pendingTrims.withLock { trims in
                    if trims[key] == version { trims[key] = nil }
                }
            }
        }
    }

    /// Forgets the marks of the lists `deleted` says were deleted with their sessions (on the
    /// store's thread, in the deleting job): a list made again under the same key starts its
    /// versions afresh, and an old mark would delete its new changes.
    func forgetTrims(_ deleted: (ListKey) -> Bool) {
        pendingTrims.withLock { trims in trims = trims.filter { !deleted($0.key) } }
    }

    /// Lists with changes still to delete (tests).
    var listsWaitingForTrim: Int { pendingTrims.withLock { $0.count } }
}
