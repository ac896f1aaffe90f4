import DiffableWeb
import Foundation
import PostgresNIO

// Reading lists back, making new ones, and what a writer missed.
extension PostgresSessionStore {
    public func list(_ key: ListKey) async throws -> StoredList? {
        readAgain(key)
        return try await client.withConnection { connection in try await self.list(key, on: connection) }
    }

    func list(_ key: ListKey, on connection: PostgresConnection) async throws -> StoredList? {
        var head: (Int, String, String, Int, String, Bool)?
        for try await row in try await connection.query("""
            SELECT version, epoch, state, base_version, base_sections, derived FROM lists
            WHERE session_id = \(key.session.value) AND demo = \(key.demo)
            """, logger: logger).decode((Int, String, String, Int, String, Bool).self) {
            head = row
        }
        guard let (version, epoch, state, baseVersion, base, derived) = head else { return nil }
        if derived {
            // A function of its state: no identifiers, no changes (the demo computes the list).
            let state = try JSONDecoder().decode([String: String].self, from: Data(state.utf8))
            return StoredList(demo: key.demo, version: version, epoch: epoch, sections: [], state: state, derived: true)
        }
        let changes = try await self.changes(key, after: 0, on: connection)
        return try StoredList.assemble(demo: key.demo, version: version, epoch: epoch, state: state,
                                       baseVersion: baseVersion, base: base, changes: changes)
    }

    func changes(_ key: ListKey, after version: Int, on connection: PostgresConnection) async throws -> [StoredChange] {
        var changes: [StoredChange] = []
        for try await (version, name, data, changeset) in try await connection.query("""
            SELECT version, name, data, changeset FROM changes
            WHERE session_id = \(key.session.value) AND demo = \(key.demo) AND version > \(version) ORDER BY version
            """, logger: logger).decode((Int, String, String, String?).self) {
            changes.append(StoredChange(event: StoredEvent(version: version, name: name, data: data), changeset: changeset))
        }
        return changes
    }

    public func createList(_ key: ListKey, _ list: StoredList) async throws -> StoredList? {
        let state = StoredList.json(list.state), sections = StoredList.json(list.derived ? [] : list.sections)
        var inserted = false
        for try await _ in try await client.query("""
            INSERT INTO lists (session_id, demo, version, epoch, state, base_version, base_sections, derived)
            VALUES (\(key.session.value), \(key.demo), \(list.version), \(list.epoch), \(state), \(list.version), \(sections), \(list.derived))
            ON CONFLICT (session_id, demo) DO NOTHING RETURNING 1
            """, logger: logger) {
            inserted = true
        }
        return inserted ? nil : try await self.list(key)
    }

    public func catchUp(_ key: ListKey, from local: ListPosition) async throws -> ListCatchUp? {
        try await client.withConnection { connection in try await self.catchUp(key, from: local, on: connection) }
    }

    /// The changes after `local` when the store has every one of them (same epoch, a list that
    /// is not derived), else the whole list; `nil` when the list is not past `local` (or gone).
    func catchUp(_ key: ListKey, from local: ListPosition, on connection: PostgresConnection) async throws -> ListCatchUp? {
        var head: (Int, String, String, Bool)?
        for try await row in try await connection.query("""
            SELECT version, epoch, state, derived FROM lists WHERE session_id = \(key.session.value) AND demo = \(key.demo)
            """, logger: logger).decode((Int, String, String, Bool).self) {
            head = row
        }
        guard let (version, epoch, stateText, derived) = head else { return nil }
        if epoch == local.epoch {
            if version <= local.version { return nil }
            if !derived {
                let changes = try await self.changes(key, after: local.version, on: connection)
                if changes.first?.version == local.version + 1, changes.last?.version == version, changes.count == version - local.version,
                   changes.allSatisfy({ $0.changeset != nil }),
                   let state = try? JSONDecoder().decode([String: String].self, from: Data(stateText.utf8)) {
                    return .changes(changes, version: version, state: state)
                }
            }
        }
        return try await list(key, on: connection).map { .list($0) }
    }
}
