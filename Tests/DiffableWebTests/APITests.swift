import SeededRandom
import DiffableDataSources
import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWeb

/// Parses a JSON body.
func object(_ response: HTTPResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}

@Suite("API: the document is the contract", .stopsLiveServers)
struct APIContractTests {
    static func document() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Sources/DiffableWeb/Resources/openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("every documented route is in the route table, and every route is documented")
    func documentMatchesRoutes() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, item) in paths {
            for method in ["get", "put", "post", "delete", "patch"] where item[method] != nil {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        let table = Set(APIRoutes.all.map { "\($0.method) \($0.path)" })
        #expect(documented == table)
    }

    @Test("no schema closes additionalProperties: the server ignores a body's members it does not name, and the document must not promise a refusal")
    func noSchemaRefusesUnknownMembers() throws {
        var closed: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if object["additionalProperties"] as? Bool == false { closed.append(path) }
                for (key, child) in object { walk(child, path + "/" + key) }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, path + "/\(index)") }
            }
        }
        walk(try Self.document(), "#")
        #expect(closed.isEmpty, "schemas that refuse unknown members: \(closed)")
    }

    @Test("every route answers, and every other method on its path is 405 with Allow")
    func routerMatchesRoutes() async throws {
        let app = try await makeApp()
        let created = await app.handle(Request(method: .post, target: "/api/sessions"))
        let id = try #require(created.json?["id"] as? String)
        // Swipe actions and context menus: a list that has them.
        let contextual = { (path: String) in path.hasSuffix("/swipe-actions") || path.hasSuffix("/menu") }
        func demo(of path: String) -> String { contextual(path) ? "emoji-explorer" : path.hasSuffix("/detail-accessory") ? "editing" : "numbers" }
        func concrete(_ path: String) -> String {
            path.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{demo}", with: demo(of: path))
                .replacingOccurrences(of: "{action}", with: "append")
        }
        let byPath = Dictionary(grouping: APIRoutes.all, by: \.path)
        for (path, routes) in byPath {
            let target = concrete(path) + (path.hasSuffix("/layout") ? "?width=390&height=844" : path.hasSuffix("/swipe-actions") ? "?item=fox" : "")
            for route in routes where !path.hasSuffix("/events") {
                var headers: HTTPHeaders = [:]
                var body: [UInt8] = []
                if route.method == "PUT" { headers["Content-Type"] = "application/json"; body = Array(#"{"sections":[]}"#.utf8) }
                if path.hasSuffix("/operations") { headers["Content-Type"] = "application/json"; body = Array(#"{"operations":[]}"#.utf8) }
                if path.hasSuffix("/selection") { headers["Content-Type"] = "application/json"; body = Array(#"{"deselect":[]}"#.utf8) }
                if path.hasSuffix("/swipe-actions") { headers["Content-Type"] = "application/json"; body = Array(#"{"item":"fox","action":"star"}"#.utf8) }
                if path.hasSuffix("/menu") { headers["Content-Type"] = "application/json"; body = Array(#"{"items":["panda"],"action":"hide"}"#.utf8) }
                if path.hasSuffix("/editing") { headers["Content-Type"] = "application/json"; body = Array(#"{"editing":false}"#.utf8) }
                if path.hasSuffix("/detail-accessory") { headers["Content-Type"] = "application/json"; body = Array(#"{"item":"c-ada"}"#.utf8) }
                if path.hasSuffix("/delete-item") {
                    // An item to delete, whatever the requests before this one left.
                    _ = await app.handle(Request(method: .post, target: concrete("/api/sessions/{id}/demos/{demo}/actions/append"),
                                                 headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
                    let items = await app.handle(Request(method: .get, target: concrete("/api/sessions/{id}/demos/{demo}/snapshot")))
                    let last = ((items.json?["sections"] as? [[String: Any]])?.last?["items"] as? [[String: Any]])?.last?["id"] as? String
                    headers["Content-Type"] = "application/json"
                    body = Array(#"{"item":"\#(last ?? "")"}"#.utf8)
                }
                let response = await app.handle(Request(method: HTTPMethod(route.method), target: target, headers: headers, body: body))
                #expect((200..<300).contains(response.status.code), "\(route.method) \(path) → \(response.status.code) \(response.text)")
            }
            let allowed = Set(routes.map(\.method))
            for method in ["GET", "PUT", "POST", "DELETE", "PATCH"] where !allowed.contains(method) && !(method == "HEAD") {
                let response = await app.handle(Request(method: HTTPMethod(method), target: target))
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers["Allow"] != nil)
            }
        }
    }

    @Test("the snapshot body's hand-written JSON equals JSONEncoder's, decoded")
    func snapshotJSON() throws {
        let body = WebApp.SnapshotBody(version: 3, sections: [
            .init(id: "a\"<b>", items: [.init(id: "x\n1", data: ["name": "Ñ \"q\" <i>", "height_m": "8848"])]),
            .init(id: "empty", items: []),
        ], selection: ListSelection(items: ["x\n1"], editing: true, multiple: false, allowed: false))
        let ours = try JSONSerialization.jsonObject(with: Data(body.json.utf8)) as? NSDictionary
        let reference = try JSONSerialization.jsonObject(with: JSONEncoder().encode(body)) as? NSDictionary
        #expect(ours != nil && ours == reference)
    }

    @Test("the served document is the file")
    func served() async throws {
        let app = try await makeApp()
        let response = await app.handle(Request(method: .get, target: "/openapi.json"))
        #expect(response.status == .ok)
        #expect(response.json?["openapi"] as? String == "3.1.0")
    }
}

@Suite("API: behaviour over HTTP", .stopsLiveServers)
struct LiveAPIBehaviourTests {
    @Test("a script attaches to a browser's session by id, and its change streams to the browser's tab")
    func scriptDrivesBrowser() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        var tab = try await live.events("/demos/numbers/events", cookie: cookie)
        #expect(try await next(&tab).name == "snapshot")
        // The script reads the share id off the page, as a person would copy it.
        let page = try await get(port: live.port, "/demos/numbers", headers: ["Cookie": "dw_session=\(cookie)"]).text
        let share = try #require(page.range(of: #"<code id="session-id">"#).map { String(page[$0.upperBound...].prefix(32)) })
        #expect(share != cookie && !page.contains(cookie), "the cookie secret never appears in the page")
        let result = try await live.postJSON("/api/sessions/\(share)/demos/numbers/operations",
                                             #"{"operations":[{"op":"moveItem","item":"n5","beforeItem":"n1"}]}"#)
        #expect(result.status == 200)
        let event = try await next(&tab)
        #expect(event.name == "changeset")
        #expect((event.json["moved"] as? [[String: Any]])?.map { $0["ids"] as? [String] } == [["n5"]], "one move in the identifiers: n5 to the top")
        let slid = (event.json["cells"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(Set(slid) == ["n1", "n2", "n3", "n4", "n5"], "in the window, every row's frame changed: n1…n4 slide down")
        tab.socket.close()
        await live.stop()
    }

    @Test("operations are atomic: a failing operation applies nothing, streams nothing, and names its index")
    func atomic() async throws {
        let live = try await LiveServer.start()
        let id = object(try await live.postJSON("/api/sessions", ""))["id"] as? String ?? ""
        var tab = try await live.events("/api/sessions/\(id)/demos/numbers/events", cookie: nil)
        #expect(try await next(&tab).name == "snapshot")
        let failed = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                             #"{"operations":[{"op":"deleteItems","items":["n1"]},{"op":"moveItem","item":"n2","afterItem":"n2"}]}"#)
        #expect(failed.status == 422)
        #expect(object(failed)["index"] as? Int == 1)
        #expect(object(failed)["error"] as? String == "item_relative_to_itself")
        let snapshot = object(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/snapshot"))
        #expect(snapshot["version"] as? Int == 1)
        await #expect(throws: (any Error).self) { _ = try await next(&tab, timeout: 0.5) }
        tab.socket.close()
        await live.stop()
    }

    @Test("ifVersion makes a write conditional: 409 when the snapshot moved on")
    func conditional() async throws {
        let live = try await LiveServer.start()
        let id = object(try await live.postJSON("/api/sessions", ""))["id"] as? String ?? ""
        let path = "/api/sessions/\(id)/demos/numbers/snapshot"
        let ok = try await live.send("PUT", path, json: #"{"sections":[{"id":"s","items":["n1","n2"]}],"ifVersion":1}"#)
        #expect(ok.status == 200)
        #expect(object(ok)["version"] as? Int == 2)
        let stale = try await live.send("PUT", path, json: #"{"sections":[{"id":"s","items":["n3"]}],"ifVersion":1}"#)
        #expect(stale.status == 409)
        #expect(object(stale)["error"] as? String == "version_conflict")
        let body = object(try await get(port: live.port, path))
        let items = ((body["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(items == ["n1", "n2"])
        await live.stop()
    }

    @Test("layout is pure: asking for another viewport leaves the session's viewport alone")
    func pureLayout() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/mountains")
        #expect(try await live.postJSON("/demos/mountains/viewport", #"{"width":1024,"height":768}"#, cookie: cookie).status == 204)
        let sessionID = try #require(SessionID(cookie))
        let share = try #require(live.app.sessions.existing(sessionID)?.shareID.value)
        let layout = object(try await get(port: live.port, "/api/sessions/\(share)/demos/mountains/layout?width=390&height=844"))
        let first = (layout["cells"] as? [[String: Any]])?.first?["frame"] as? [String: Double]
        #expect(first == ["x": 10, "y": 10, "w": 370, "h": 44], "one column at 390 px")
        let list = try #require(live.app.sessions.existing(sessionID)?.existingLists["mountains"])
        #expect(list.container.width == 1024)
        await live.stop()
    }

    @Test("a page GET that names a viewport is laid out for it but leaves the session's viewport alone (a GET writes nothing)")
    func pageViewportIsNotSaved() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let sessionID = try #require(SessionID(cookie))
        let list = try #require(live.app.sessions.existing(sessionID)?.existingLists["numbers"])
        let before = list.container
        let page = try await get(port: live.port, "/demos/numbers?width=1&height=1", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie") == nil, "the page is the same session's")
        #expect(list.container == before)
        // The page itself is laid out for the viewport it asked for.
        let narrow = try await get(port: live.port, "/demos/numbers?width=300&height=600", headers: ["Cookie": "dw_session=\(cookie)"])
        let plain = try await get(port: live.port, "/demos/numbers", headers: ["Cookie": "dw_session=\(cookie)"])
        #expect(firstCellWidth(narrow.text) != nil)
        #expect(firstCellWidth(narrow.text) != firstCellWidth(plain.text))
        #expect(list.container == before)
        await live.stop()
    }

    /// The `width` of the page's first positioned cell (`style="transform: …; width: Wpx"`).
    func firstCellWidth(_ html: String) -> String? {
        guard let cell = html.range(of: "data-frame=") else { return nil }
        let rest = html[cell.upperBound...]
        guard let start = rest.range(of: "width: "), let end = rest[start.upperBound...].range(of: "px") else { return nil }
        return String(rest[start.upperBound..<end.lowerBound])
    }

    @Test("errors: unknown session 404, not JSON 415, unknown op 400, unknown item 404, bad viewport 400")
    func errors() async throws {
        let live = try await LiveServer.start()
        let id = object(try await live.postJSON("/api/sessions", ""))["id"] as? String ?? ""
        #expect(try await get(port: live.port, "/api/sessions/0123456789abcdef0123456789abcdef").status == 404)
        #expect(try await get(port: live.port, "/api/sessions/nope/demos/numbers/snapshot").status == 404)
        #expect(try await get(port: live.port, "/api/sessions/\(id)/demos/nope/snapshot").status == 404)
        let form = try await post(port: live.port, "/api/sessions/\(id)/demos/numbers/operations", body: Array("a=1".utf8),
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status == 415)
        let unknownOp = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations", #"{"operations":[{"op":"explode"}]}"#)
        #expect(unknownOp.status == 400 && object(unknownOp)["error"] as? String == "invalid_operation")
        let twoAnchors = try await live.postJSON("/api/sessions/\(id)/demos/numbers/operations",
                                                 #"{"operations":[{"op":"moveItem","item":"n1","beforeItem":"n2","afterItem":"n3"}]}"#)
        #expect(twoAnchors.status == 400)
        let unknownItem = try await live.postJSON("/api/sessions/\(id)/demos/mountains/operations", #"{"operations":[{"op":"appendItems","items":["nope"]}]}"#)
        #expect(unknownItem.status == 404 && object(unknownItem)["error"] as? String == "unknown_item")
        #expect(try await get(port: live.port, "/api/sessions/\(id)/demos/numbers/layout?width=0&height=5").status == 400)
        let action = try await live.postJSON("/api/sessions/\(id)/demos/numbers/actions/move", #"{"from":0,"to":99}"#)
        #expect(action.status == 400)
        await live.stop()
    }
}

@Suite("API: random operation batches over HTTP agree with an in-process Snapshot", .stopsLiveServers)
struct LiveAPIPropertyTests {
    /// A random batch over a small alphabet of ids, so that valid and invalid operations both happen.
    /// Picks mostly from what the model holds (or lacks, for additions), so most batches are
    /// valid, with a few wild picks so that some are not.
    static func randomBatch(_ rng: inout SeededRandom, model: Snapshot<String, String>) -> (json: String, operations: [(Snapshot<String, String>) throws -> Snapshot<String, String>]) {
        let allItems = (1...12).map { "n\($0)" }, allSections = ["a", "b", "c"]
        let present = model.itemIdentifiers, absent = allItems.filter { !model.contains(item: $0) }
        let presentSections = model.sectionIdentifiers, absentSections = allSections.filter { !model.contains(section: $0) }
        func pick(_ list: [String]) -> String { list[Int(rng.next() % UInt64(list.count))] }
        func biased(_ preferred: [String], _ all: [String]) -> String { !preferred.isEmpty && rng.next() % 8 != 0 ? pick(preferred) : pick(all) }
        func some(_ preferred: [String], _ all: [String]) -> [String] {
            var chosen: [String] = []
            for _ in 0..<Int(rng.next() % 2 + 1) { let id = biased(preferred, all); if rng.next() % 10 == 0 || !chosen.contains(id) { chosen.append(id) } }
            return chosen
        }
        func quoted(_ ids: [String]) -> String { "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        var json: [String] = []
        var operations: [(Snapshot<String, String>) throws -> Snapshot<String, String>] = []
        for _ in 0..<Int(rng.next() % 3 + 1) {
            switch rng.next() % 9 {
            case 0:
                let ids = some(absentSections, allSections)
                json.append(#"{"op":"appendSections","sections":\#(quoted(ids))}"#)
                operations.append { var s = $0; try s.appendSections(ids); return s }
            case 1, 2:
                let ids = some(absent, allItems), section = biased(presentSections, allSections), explicit = rng.next() % 2 == 0
                json.append(explicit ? #"{"op":"appendItems","items":\#(quoted(ids)),"section":"\#(section)"}"# : #"{"op":"appendItems","items":\#(quoted(ids))}"#)
                operations.append { var s = $0; try s.appendItems(ids, toSection: explicit ? section : nil); return s }
            case 3:
                let ids = some(absent, allItems), anchor = biased(present, allItems)
                json.append(#"{"op":"insertItems","items":\#(quoted(ids)),"afterItem":"\#(anchor)"}"#)
                operations.append { var s = $0; try s.insertItems(ids, afterItem: anchor); return s }
            case 4:
                let ids = some(present, allItems)
                json.append(#"{"op":"deleteItems","items":\#(quoted(ids))}"#)
                operations.append { var s = $0; try s.deleteItems(ids); return s }
            case 5:
                let item = biased(present, allItems), anchor = biased(present, allItems)
                json.append(#"{"op":"moveItem","item":"\#(item)","beforeItem":"\#(anchor)"}"#)
                operations.append { var s = $0; try s.moveItem(item, beforeItem: anchor); return s }
            case 6:
                let section = biased(presentSections, allSections), anchor = biased(presentSections, allSections)
                json.append(#"{"op":"moveSection","section":"\#(section)","afterSection":"\#(anchor)"}"#)
                operations.append { var s = $0; try s.moveSection(section, afterSection: anchor); return s }
            case 7:
                let ids = some(presentSections, allSections)
                json.append(#"{"op":"deleteSections","sections":\#(quoted(ids))}"#)
                operations.append { var s = $0; try s.deleteSections(ids); return s }
            default:
                let ids = some(present, allItems)
                json.append(#"{"op":"reconfigureItems","items":\#(quoted(ids))}"#)
                operations.append { var s = $0; try s.reconfigureItems(ids); return s }
            }
        }
        return (#"{"operations":[\#(json.joined(separator: ","))]}"#, operations)
    }

    @Test("60 random batches per seed: the server's snapshot always equals the model; rejected batches change nothing", arguments: [7, 99] as [UInt64])
    func agrees(seed: UInt64) async throws {
        let live = try await LiveServer.start()
        let id = object(try await live.postJSON("/api/sessions", ""))["id"] as? String ?? ""
        let base = "/api/sessions/\(id)/demos/numbers"
        _ = try await live.send("PUT", base + "/snapshot", json: #"{"sections":[{"id":"a","items":["n1","n2","n3"]},{"id":"b","items":["n4"]}]}"#)
        var model = Snapshot<String, String>()
        try model.appendSections(["a", "b"])
        try model.appendItems(["n1", "n2", "n3"], toSection: "a")
        try model.appendItems(["n4"], toSection: "b")
        var version = 2
        var rng = SeededRandom(seed: seed)
        var accepted = 0, rejected = 0
        for _ in 0..<60 {
            let (json, operations) = LiveAPIPropertyTests.randomBatch(&rng, model: model)
            var expected: Snapshot<String, String>? = model
            do { for operation in operations { expected = try operation(expected!) } } catch { expected = nil }
            let response = try await live.postJSON(base + "/operations", json)
            if let expected {
                #expect(response.status == 200, "\(json) → \(response.text)")
                version += 1
                model = expected.clearingMarks()
                accepted += 1
            } else {
                #expect(response.status == 422, "\(json) → \(response.text)")
                rejected += 1
            }
            let body = object(try await get(port: live.port, base + "/snapshot"))
            #expect(body["version"] as? Int == version)
            let sections = (body["sections"] as? [[String: Any]] ?? []).map { section in
                (section["id"] as? String ?? "", (section["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            }
            #expect(sections.map(\.0) == model.sectionIdentifiers)
            #expect(sections.flatMap(\.1) == model.itemIdentifiers)
        }
        #expect(accepted > 5 && rejected > 5, "both kinds of batch were exercised (\(accepted) accepted, \(rejected) rejected)")
        await live.stop()
    }
}
