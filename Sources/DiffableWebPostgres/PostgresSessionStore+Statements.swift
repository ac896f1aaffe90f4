import DiffableWeb
import PostgresNIO

// The statements that save a write, prepared once per connection: a save is the hot path of
// every list (one per action), and an unnamed statement is parsed and planned again each time.
// Each answers one row when it saved, none when the list was elsewhere or gone (see
// ``PostgresSessionStore/saveStatement(_:of:over:processID:keep:)``).

/// What every save binds first: the list's new position and state, the list, the position it
/// must be at, and the notification.
private struct SaveHead {
    var version: Int
    var epoch: String
    var state: String
    var session: String
    var demo: String
    var baseVersion: Int
    var baseEpoch: String
    var channel: String
    var payload: String

    /// `$1` … `$9`, in the order the statements name them.
    func bindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 16)
        bindings.append(version)
        bindings.append(epoch)
        bindings.append(state)
        bindings.append(session)
        bindings.append(demo)
        bindings.append(baseVersion)
        bindings.append(baseEpoch)
        bindings.append(channel)
        bindings.append(payload)
        return bindings
    }
}

/// The common table expression that inserts a save's changes (`$10` … `$13`) once the list's
/// row was updated (`updated`).
private let insertChanges = """
    inserted AS (
                INSERT INTO changes (session_id, demo, version, name, data, changeset)
                SELECT $4, $5, v, n, d, NULLIF(c, '')
                FROM unnest($10::bigint[], $11::text[], $12::text[], $13::text[]) AS t(v, n, d, c)
                WHERE EXISTS (SELECT 1 FROM updated))
    """

/// The changes a save inserts (`$10` … `$13`), one element per change.
private struct SaveChanges {
    var versions: [Int]
    var names: [String]
    var data: [String]
    var changesets: [String]

    init(_ changes: [StoredChange]) {
        versions = changes.map(\.version)
        names = changes.map(\.event.name)
        data = changes.map(\.event.data)
        changesets = changes.map { $0.changeset ?? "" }
    }

    func append(to bindings: inout PostgresBindings) {
        bindings.append(versions)
        bindings.append(names)
        bindings.append(data)
        bindings.append(changesets)
    }
}

/// A derived write (the Mountains list is its query): the version, epoch and state only; the
/// list's changes are forgotten.
struct SaveDerivedStatement: PostgresPreparedStatement {
    static let name = "diffable_web_save_derived"
    static let sql = """
        WITH updated AS (
            UPDATE lists SET version = $1, epoch = $2, state = $3, updated_at = now(),
                derived = true, base_version = $1, base_sections = '[]'
            WHERE session_id = $4 AND demo = $5 AND version = $6 AND epoch = $7
            RETURNING 1),
        forgotten AS (
            DELETE FROM changes WHERE session_id = $4 AND demo = $5 AND EXISTS (SELECT 1 FROM updated))
        SELECT pg_notify($8, $9) FROM updated
        """
    typealias Row = Void
    fileprivate var head: SaveHead

    func makeBindings() -> PostgresBindings { head.bindings() }
    func decodeRow(_ row: PostgresRow) {}
}

/// An ordinary write: its changes are inserted.
struct SaveChangesStatement: PostgresPreparedStatement {
    static let name = "diffable_web_save_changes"
    static let sql = """
        WITH updated AS (
            UPDATE lists SET version = $1, epoch = $2, state = $3, updated_at = now()
            WHERE session_id = $4 AND demo = $5 AND version = $6 AND epoch = $7
            RETURNING 1),
        \(insertChanges)
        SELECT pg_notify($8, $9) FROM updated
        """
    typealias Row = Void
    fileprivate var head: SaveHead
    fileprivate var changes: SaveChanges

    func makeBindings() -> PostgresBindings {
        var bindings = head.bindings()
        changes.append(to: &bindings)
        return bindings
    }
    func decodeRow(_ row: PostgresRow) {}
}

/// A write with a checkpoint: the identifiers are replaced too, and the changes the event log
/// no longer needs are pruned (`$15`: the last version pruned).
struct SaveCheckpointStatement: PostgresPreparedStatement {
    static let name = "diffable_web_save_checkpoint"
    static let sql = """
        WITH updated AS (
            UPDATE lists SET version = $1, epoch = $2, state = $3, updated_at = now(),
                derived = false, base_version = $1, base_sections = $14
            WHERE session_id = $4 AND demo = $5 AND version = $6 AND epoch = $7
            RETURNING 1),
        \(insertChanges),
        pruned AS (
            DELETE FROM changes WHERE session_id = $4 AND demo = $5 AND version <= $15
            AND EXISTS (SELECT 1 FROM updated))
        SELECT pg_notify($8, $9) FROM updated
        """
    typealias Row = Void
    fileprivate var head: SaveHead
    fileprivate var changes: SaveChanges
    var sections: String
    var prunedThrough: Int

    func makeBindings() -> PostgresBindings {
        var bindings = head.bindings()
        changes.append(to: &bindings)
        bindings.append(sections)
        bindings.append(prunedThrough)
        return bindings
    }
    func decodeRow(_ row: PostgresRow) {}
}

/// One of the three saves.
enum SaveStatement {
    case derived(SaveDerivedStatement)
    case changes(SaveChangesStatement)
    case checkpoint(SaveCheckpointStatement)
}

extension PostgresSessionStore {
    /// The statement that saves `write` only if the list is at `base` (its version and epoch),
    /// and then notifies the other processes. Autocommit, so one round trip.
    ///
    /// - an ordinary write inserts its changes;
    /// - with a checkpoint it also replaces the identifiers, and prunes the changes the event
    ///   log no longer needs (`keep`: how many to keep);
    /// - a derived write keeps only the version, epoch and state and deletes the list's changes.
    static func saveStatement(_ write: ListWrite, of key: ListKey, over base: ListPosition, processID: String, keep: Int) -> SaveStatement {
        let head = SaveHead(version: write.version, epoch: write.epoch, state: StoredList.json(write.state),
                            session: key.session.value, demo: key.demo, baseVersion: base.version, baseEpoch: base.epoch,
                            channel: channel, payload: "\(processID) \(key.session.value) \(key.demo) \(write.version)")
        if write.derived { return .derived(SaveDerivedStatement(head: head)) }
        if let checkpoint = write.checkpoint {
            return .checkpoint(SaveCheckpointStatement(head: head, changes: SaveChanges(write.changes),
                                                       sections: StoredList.json(checkpoint), prunedThrough: write.version - keep))
        }
        return .changes(SaveChangesStatement(head: head, changes: SaveChanges(write.changes)))
    }

    /// Runs a save on the pool: whether it saved.
    func run(_ statement: SaveStatement) async throws -> Bool {
        switch statement {
        case .derived(let s): try await saved(client.execute(s, logger: logger))
        case .changes(let s): try await saved(client.execute(s, logger: logger))
        case .checkpoint(let s): try await saved(client.execute(s, logger: logger))
        }
    }

    /// Runs a save on `connection` (inside a transaction): whether it saved.
    func run(_ statement: SaveStatement, on connection: PostgresConnection) async throws -> Bool {
        switch statement {
        case .derived(let s): try await saved(connection.execute(s, logger: logger))
        case .changes(let s): try await saved(connection.execute(s, logger: logger))
        case .checkpoint(let s): try await saved(connection.execute(s, logger: logger))
        }
    }

    private func saved<Rows: AsyncSequence>(_ rows: Rows) async throws -> Bool {
        var saved = false
        for try await _ in rows { saved = true }
        return saved
    }
}
