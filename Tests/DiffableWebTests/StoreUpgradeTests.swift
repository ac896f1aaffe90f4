import Foundation
import MicroHTTP
import Testing
@testable import DiffableWeb

/// Issue 36, item 6: sessions survive the upgrade. `Fixtures/schema4/` is a store as a server of
/// the build before the typed list API left it after a SIGTERM (the database and its WAL), with
/// sessions that touch all seven demos, and `expected.json`: what the server answered for each of
/// their lists (`GET /api/sessions/{share}/demos/{demo}/snapshot`) before it stopped, and each
/// list's stored state as read from the file. `scripts/make-store-fixture.py` wrote both; keep the
/// files as they are (they stand for stores on disk today), and run it again only for a new
/// fixture beside them. Each test works on a copy.
///
/// `DIFFABLE_WEB_STORE_FIXTURE_EXPECTED` names another `expected.json` to check the same files
/// against (a tampered copy shows that the suite notices a difference).
@Suite("Store upgrade: a store saved by the build before the typed list API opens with every session, list and state")
struct StoreUpgradeTests {
    static let fixture = packageRoot + "/Tests/DiffableWebTests/Fixtures/schema4"

    /// `expected.json`.
    struct Expected: Decodable {
        var schemaVersion: Int
        var files: [String]
        var sessions: [Session]

        struct Session: Decodable {
            var id: String
            var shareID: String
            var note: String
            var lists: [String: List]
        }

        struct List: Decodable {
            var version: Int
            var sections: [Section]
            /// The demo state the file holds (read from it by the generator).
            var state: [String: String]
            /// Whether the list is saved as its state only (Mountains while it is its query).
            var derived: Bool
        }
    }

    /// A snapshot as `GET …/snapshot` answers it.
    struct Snapshot: Decodable, Equatable {
        var version: Int
        var sections: [Section]
    }

    struct Section: Decodable, Equatable {
        var id: String
        var items: [Item]
    }

    struct Item: Decodable, Equatable {
        var id: String
        var data: [String: String]
    }

    static let demos = ["numbers", "mountains", "photos", "outline", "explore", "urls", "destinations"]
    /// Demos whose state is empty (``Demo/persistentState()`` left as the default).
    static let stateless: Set<String> = ["explore"]

    static func expected() throws -> Expected {
        let path = ProcessInfo.processInfo.environment["DIFFABLE_WEB_STORE_FIXTURE_EXPECTED"] ?? fixture + "/expected.json"
        return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A copy of the fixture's store files in a new directory (the caller removes it).
    static func copy(_ expected: Expected) throws -> URL {
        let directory = try temporaryDirectory()
        for file in expected.files {
            try FileManager.default.copyItem(atPath: fixture + "/" + file, toPath: directory.appendingPathComponent(file).path)
        }
        return directory
    }

    @Test("the fixture is a file of schema 4 with its WAL, under 1 MiB")
    func fixtureFiles() throws {
        let expected = try Self.expected()
        #expect(expected.schemaVersion == 4)
        #expect(Set(expected.files) == ["diffable-web.sqlite", "diffable-web.sqlite-wal"])
        var size = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.fixture) {
            size += try FileManager.default.attributesOfItem(atPath: Self.fixture + "/" + file)[.size] as? Int ?? 0
        }
        #expect(size > 0 && size < 1 << 20)
        #expect(expected.sessions.count == 4)
        let opened = Set(expected.sessions.flatMap(\.lists.keys))
        #expect(opened == Set(Self.demos), "the sessions touch all seven demos")
    }

    @Test("today's SQLiteSessionStore opens the file: every session by id and share id, every list with its sections, items, version and state")
    func store() async throws {
        let expected = try Self.expected()
        let directory = try Self.copy(expected)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("diffable-web.sqlite").path
        do {
            let file = try SQLiteDatabase(path: path)
            #expect(try file.query("SELECT version FROM schema_version").first?.first?.integer == expected.schemaVersion,
                    "the file is of the schema expected.json records")
        }

        let store = try SQLiteSessionStore(directory: directory.path, eventLogCapacity: 256)  // the server's default
        #expect(try store.database.query("SELECT version FROM schema_version").first?.first?.integer == SQLiteSessionStore.schemaVersion)
        #expect(try await store.sessionCount() == expected.sessions.count)
        for session in expected.sessions {
            let id = try #require(SessionID(session.id)), shareID = try #require(SessionID(session.shareID))
            #expect(try await store.session(id: id) == StoredSession(id: id, shareID: shareID), "\(session.note)")
            #expect(try await store.session(shareID: shareID) == StoredSession(id: id, shareID: shareID), "\(session.note)")
            for demo in Self.demos {
                let stored = try await store.list(ListKey(session: id, demo: demo))
                guard let list = session.lists[demo] else {
                    #expect(stored == nil, "\(session.id)/\(demo) was never opened")
                    continue
                }
                let key = "\(session.id)/\(demo)"
                let loaded = try #require(stored, "\(key) is in the store")
                print("StoreUpgradeTests: \(key) version \(loaded.version)\(loaded.derived ? " (derived)" : ""), state \(loaded.state.sorted { $0.key < $1.key })")
                #expect(loaded.demo == demo)
                #expect(loaded.version == list.version, "\(key)")
                #expect(loaded.derived == list.derived, "\(key)")
                // A derived list keeps no identifiers: its demo computes them from the state (the
                // WebApp test below compares them).
                let sections = list.sections.map { StoredList.StoredSection(id: $0.id, items: $0.items.map(\.id)) }
                #expect(loaded.sections == (list.derived ? [] : sections), "\(key)")
                #expect(loaded.state == list.state, "\(key)")
                #expect(loaded.state.isEmpty == Self.stateless.contains(demo), "\(key): the demo's state is kept")
            }
        }
        await store.close()
    }

    @Test("a WebApp on the file answers every list's snapshot as the server did before it stopped")
    func served() async throws {
        let expected = try Self.expected()
        let directory = try Self.copy(expected)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The fixture's sessions were last seen when it was made: no idle sweep may take them.
        let app = try await makeApp { $0.stateDirectory = directory.path; $0.sessionIdleTimeout = .seconds(100 * 366 * 86_400) }
        for session in expected.sessions {
            for demo in Self.demos {
                guard let list = session.lists[demo] else { continue }
                let key = "\(session.id)/\(demo)"
                let response = await app.handle(Request(method: .get, target: "/api/sessions/\(session.shareID)/demos/\(demo)/snapshot"))
                #expect(response.status == .ok, "\(key): \(response.text)")
                guard case .bytes(let bytes) = response.body, let answer = try? JSONDecoder().decode(Snapshot.self, from: Data(bytes)) else {
                    Issue.record("\(key): not a snapshot: \(response.text.prefix(200))")
                    continue
                }
                #expect(answer.version == list.version, "\(key)")
                #expect(answer.sections.map(\.id) == list.sections.map(\.id), "\(key)")
                for (served, saved) in zip(answer.sections, list.sections) where served != saved {
                    let common = min(served.items.count, saved.items.count)
                    let index = (0..<common).first { served.items[$0] != saved.items[$0] } ?? common
                    let (was, expected) = (served.items.dropFirst(index).first, saved.items.dropFirst(index).first)
                    Issue.record("""
                        \(key) section \(saved.id): \(served.items.count) items served, \(saved.items.count) expected; \
                        at \(index) served \(was.map { "\($0)" } ?? "none"), expected \(expected.map { "\($0)" } ?? "none")
                        """)
                }
            }
        }
        await app.close()
    }
}
