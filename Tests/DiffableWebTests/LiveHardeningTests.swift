import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Issue 15's findings against the web layer, over a real socket: each test failed before its fix.
@Suite("Live: hostile scripts cannot crash, bloat or confuse a list")
struct LiveHardeningTests {
    /// A new session's share id, from the API.
    static func share(_ live: LiveServer) async throws -> String {
        let created = try await live.postJSON("/api/sessions", "")
        return try #require(object(created)["id"] as? String)
    }

    static func numbers(_ live: LiveServer, _ id: String) async throws -> (version: Int, items: [String]) {
        let response = try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/snapshot")
        let body = object(response)
        let sections = body["sections"] as? [[String: Any]] ?? []
        let items = sections.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        return (body["version"] as? Int ?? -1, items)
    }

    static func healthy(_ live: LiveServer) async throws -> Bool {
        try await get(port: live.port, "/healthz").status == 200
    }

    // MARK: 1. Arithmetic on input

    @Test("the largest numbers a script can put in the list make append refuse cleanly, not trap",
          arguments: [
            (#"{"op":"appendItems","items":["n9007199254740991"]}"#, "{}"),
            (#"{"op":"appendItems","items":["n9007199254740991"]}"#, #"{"count":10000}"#),
            (#"{"op":"appendItems","items":["n9007199254740982"]}"#, #"{"count":10}"#),
            (#"{"op":"insertItems","items":["n9007199254740991"],"beforeItem":"n1"}"#, #"{"count":1}"#),
          ])
    func appendNearTheTop(operation: String, append: String) async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let put = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations", #"{"operations":[\#(operation)]}"#)
        #expect(put.status == 200, "\(put.text)")
        let before = try await Self.numbers(live, id)
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", append)
        #expect(response.status == 400)
        #expect(object(response)["error"] as? String == "invalid_parameter")
        #expect(try await Self.healthy(live))
        let after = try await Self.numbers(live, id)
        #expect(after.version == before.version && after.items == before.items)
        await live.stop()
    }

    @Test("one below the top still appends exactly the last number")
    func appendTheLastNumber() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        _ = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                    #"{"operations":[{"op":"appendItems","items":["n9007199254740990"]}]}"#)
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", "{}")
        #expect(response.status == 200)
        #expect(try await Self.numbers(live, id).items.last == "n9007199254740991")
        await live.stop()
    }

    @Test("only the canonical spelling of a number names an item",
          arguments: ["n007", "n+7", "n-3", "n0", "n", "n 7", "n7 ", "n９", "n9007199254740992", "n9223372036854775807",
                      "n99999999999999999999", "N7", "n0x7"])
    func nonCanonicalNumbers(_ item: String) async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let body = #"{"operations":[{"op":"appendItems","items":["\#(item)"]}]}"#
        let response = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations", body)
        #expect(response.status == 404)
        #expect(object(response)["error"] as? String == "unknown_item")
        let canonical = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                                #"{"operations":[{"op":"appendItems","items":["n7"]}]}"#)
        #expect(canonical.status == 200)
        await live.stop()
    }

    // MARK: 4. Documented limits, on every path

    /// A request that breaks one documented limit: (route, body).
    static func overLimit(_ what: String) -> (route: String, body: String) {
        switch what {
        case "1,001 operations":
            let one = #"{"op":"reloadItems","items":["n1"]}"#
            return ("operations", #"{"operations":[\#(Array(repeating: one, count: 1_001).joined(separator: ","))]}"#)
        case "20,001 identifiers in one operation":
            let ids = (1...20_001).map { "\"n\($0 + 10)\"" }.joined(separator: ",")
            return ("operations", #"{"operations":[{"op":"appendItems","items":[\#(ids)]}]}"#)
        case "a 201-character section id":
            return ("operations", #"{"operations":[{"op":"appendSections","sections":["\#(String(repeating: "é", count: 201))"]}]}"#)
        case "a 900 KB section id":
            return ("operations", #"{"operations":[{"op":"appendSections","sections":["\#(String(repeating: "s", count: 900_000))"]}]}"#)
        case "an empty item id":
            return ("operations", #"{"operations":[{"op":"moveItem","item":"","beforeItem":"n1"}]}"#)
        case "ifVersion -1 (operations)":
            return ("operations", #"{"operations":[],"ifVersion":-1}"#)
        case "ifVersion -1 (snapshot)":
            return ("snapshot", #"{"sections":[],"ifVersion":-1}"#)
        case "1,001 sections":
            return ("snapshot", #"{"sections":[\#((1...1_001).map { #"{"id":"s\#($0)","items":[]}"# }.joined(separator: ","))]}"#)
        default:  // "100,001 items in all"
            let sections = stride(from: 1, through: 100_001, by: 20_000).map { start -> String in
                let ids = (start..<min(start + 20_000, 100_002)).map { "\"n\($0)\"" }.joined(separator: ",")
                return #"{"id":"s\#(start)","items":[\#(ids)]}"#
            }
            return ("snapshot", #"{"sections":[\#(sections.joined(separator: ","))]}"#)
        }
    }

    @Test("every documented request limit is enforced, and nothing changes",
          arguments: ["1,001 operations", "20,001 identifiers in one operation", "a 201-character section id",
                      "a 900 KB section id", "an empty item id", "ifVersion -1 (operations)", "ifVersion -1 (snapshot)",
                      "1,001 sections", "100,001 items in all"])
    func requestLimits(_ what: String) async throws {
        let (route, body) = Self.overLimit(what)
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let before = try await Self.numbers(live, id)
        let path = "/api/sessions/\(id)/demos/numbers/\(route)"
        let response = try await live.send(route == "snapshot" ? "PUT" : "POST", path, json: body)
        #expect(response.status == 400, "\(what): \(response.status) \(response.text.prefix(200))")
        let code = object(response)["error"] as? String
        #expect(code == "limit_exceeded" || code == "invalid_version", "\(what): \(code ?? "-")")
        let after = try await Self.numbers(live, id)
        #expect(after.version == before.version && after.items == before.items)
        await live.stop()
    }

    @Test("operations cannot grow a list past 100,000 items, however many batches")
    func listSizeCap() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let path = "/api/sessions/\(id)/demos/numbers/operations"
        _ = try await live.postJSON(path, #"{"operations":[{"op":"deleteAllItems"},{"op":"appendSections","sections":["numbers"]}]}"#)
        for batch in 0..<5 {
            let ids = (1...20_000).map { "\"n\(batch * 20_000 + $0)\"" }.joined(separator: ",")
            let response = try await live.postJSON(path, #"{"operations":[{"op":"appendItems","items":[\#(ids)]}]}"#)
            #expect(response.status == 200)
        }
        let full = try await Self.numbers(live, id)
        #expect(full.items.count == 100_000)
        let over = try await live.postJSON(path, #"{"operations":[{"op":"appendItems","items":["n100001"]}]}"#)
        #expect(over.status == 422)
        #expect(object(over)["error"] as? String == "list_too_large")
        let append = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/append", "{}")
        #expect(append.status == 400)
        let after = try await Self.numbers(live, id)
        #expect(after.version == full.version && after.items.count == 100_000)
        await live.stop()
    }

    // MARK: 9. Conformance of the web routes

    @Test("an empty operations batch changes nothing, not even the version")
    func emptyBatch() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let path = "/api/sessions/\(id)/demos/numbers/operations"
        let before = try await Self.numbers(live, id)
        let response = try await live.postJSON(path, #"{"operations":[]}"#)
        #expect(response.status == 200)
        #expect(object(response)["version"] as? Int == before.version)
        #expect(try await Self.numbers(live, id).version == before.version)
        let stale = try await live.postJSON(path, #"{"operations":[],"ifVersion":\#(before.version + 5)}"#)
        #expect(stale.status == 409)
        await live.stop()
    }

    @Test("a bad viewport is a 400 on pages and streams too, as on the layout route",
          arguments: ["width=0&height=800", "width=390&height=0", "width=-1&height=800", "width=abc&height=800",
                      "width=390", "height=800", "width=10001&height=800", "width=nan&height=800", "width=inf&height=800"])
    func badViewports(_ query: String) async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        for path in ["/demos/numbers", "/demos/numbers/events", "/api/sessions/\(id)/demos/numbers/events",
                     "/api/sessions/\(id)/demos/numbers/layout"] {
            let response = try await get(port: live.port, "\(path)?\(query)")
            #expect(response.status == 400, "\(path)?\(query) → \(response.status)")
            #expect(object(response)["error"] as? String == "invalid_viewport", "\(path)?\(query)")
        }
        await live.stop()
    }

    // MARK: 5. Session cost

    @Test("creating or describing a session opens none of its lists")
    func lazyLists() async throws {
        let live = try await LiveServer.start()
        let id = try await Self.share(live)
        let shareID = try #require(SessionID(id))
        let session = try #require(live.app.sessions.lookup(shareID: shareID))
        #expect(session.existingLists.isEmpty)
        let described = object(try await get(port: live.port, "/api/sessions/\(id)"))
        let demos = described["demos"] as? [[String: Any]] ?? []
        #expect(demos.count == 2 && demos.allSatisfy { $0["opened"] as? Bool == false && $0["version"] as? Int == 1 })
        #expect(demos.first { $0["name"] as? String == "numbers" }?["itemCount"] as? Int == 5)
        #expect(session.existingLists.isEmpty)
        _ = try await Self.numbers(live, id)
        #expect(Array(session.existingLists.keys) == ["numbers"])
        let again = object(try await get(port: live.port, "/api/sessions/\(id)"))["demos"] as? [[String: Any]] ?? []
        #expect(again.first { $0["name"] as? String == "numbers" }?["opened"] as? Bool == true)
        await live.stop()
    }
}
