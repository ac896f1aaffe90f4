import Foundation
import HTTPTestSupport
import SeededRandom
import Testing
@testable import DiffableWeb

/// A client that keeps what the protocol gives it (docs/protocol.md): every identifier in order,
/// and only the window's cells. It follows the same rules as Public/js/changeset.js.
struct WindowClient {
    struct Cell: Equatable { var frame: [String: Double]; var html: String }
    var sections: [(id: String, items: [String])] = []
    var cells: [String: Cell] = [:]
    var version = 0
    var stream = ""

    var order: [String] { sections.flatMap(\.items) }

    static func frame(_ value: Any?) -> [String: Double] { value as? [String: Double] ?? [:] }

    mutating func apply(_ event: SSEEvent) {
        let json = event.json
        if let stream = json["stream"] as? String { self.stream = stream }
        switch event.name {
        case "snapshot":
            sections = (json["sections"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0["items"] as? [String] ?? []) }
            cells = [:]
            for cell in json["cells"] as? [[String: Any]] ?? [] {
                cells[cell["id"] as? String ?? ""] = Cell(frame: Self.frame(cell["frame"]), html: cell["html"] as? String ?? "")
            }
            version = json["version"] as? Int ?? version
        case "changeset":
            guard let newVersion = json["version"] as? Int, newVersion > version else { return }
            let deleted = json["deleted"] as? [String] ?? []
            for id in deleted { cells[id] = nil }
            applyOrder(json, deleted: deleted)
            applyWindow(json)
            for update in json["updated"] as? [[String: Any]] ?? [] {
                if let id = update["id"] as? String, cells[id] != nil { cells[id]?.html = update["html"] as? String ?? "" }
            }
            version = newVersion
        case "window":
            if json["reset"] as? Bool == true {
                let keep = Set((json["cells"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                cells = cells.filter { keep.contains($0.key) }
            }
            applyWindow(json)
        default:
            break
        }
    }

    private mutating func applyOrder(_ json: [String: Any], deleted: [String]) {
        /// Runs of ids at consecutive indices, expanded.
        func expand(_ runs: Any?) -> [(id: String, section: String, index: Int)] {
            (runs as? [[String: Any]] ?? []).flatMap { run -> [(id: String, section: String, index: Int)] in
                let start = run["index"] as? Int ?? 0, section = run["section"] as? String ?? ""
                return (run["ids"] as? [String] ?? []).enumerated().map { ($1, section, start + $0) }
            }
        }
        let inserted = expand(json["inserted"]), moved = expand(json["moved"])
        var leaving = Set(deleted)
        for move in moved { leaving.insert(move.id) }
        var kept = sections.map { (id: $0.id, items: $0.items.filter { !leaving.contains($0) }) }
        if let order = json["sections"] as? [String] {
            let byID = Dictionary(kept.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            kept = order.map { byID[$0] ?? (id: $0, items: []) }
        }
        let arrivals = (inserted + moved).sorted { $0.index < $1.index }
        for arrival in arrivals {
            guard let section = kept.firstIndex(where: { $0.id == arrival.section }) else { continue }
            kept[section].items.insert(arrival.id, at: min(arrival.index, kept[section].items.count))
        }
        sections = kept
    }

    private mutating func applyWindow(_ json: [String: Any]) {
        for cell in json["cells"] as? [[String: Any]] ?? [] {
            guard let id = cell["id"] as? String else { continue }
            if let html = cell["html"] as? String {
                cells[id] = Cell(frame: Self.frame(cell["frame"]), html: html)
            } else {
                // A held cell's frame names only the parts that changed: merged with the one held.
                cells[id]?.frame.merge(Self.frame(cell["frame"])) { _, new in new }
            }
        }
        for left in json["left"] as? [[String: Any]] ?? [] {
            if let id = left["id"] as? String { cells[id] = nil }
        }
    }
}

@Suite("Live window: a client that keeps only its window ends with exactly the server's order and window", .stopsLiveServers)
struct LiveWindowPropertyTests {
    @Test("random changes, window moves and measured cells", arguments: [1, 2, 3])
    func randomChangesAndMoves(seed: Int) async throws {
        var random = SeededRandom(seed: UInt64(seed))
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/numbers")
        let page = try await get(port: live.port, "/demos/numbers", headers: ["Cookie": "dw_session=\(cookie)"]).text
        let share = try #require(page.range(of: #"<code id="session-id">"#).map { String(page[$0.upperBound...].prefix(32)) })
        let api = "/api/sessions/\(share)/demos/numbers"
        var nextNumber = 301
        let start = (1...300).map { "\"n\($0)\"" }.joined(separator: ",")
        let put = try await live.send("PUT", "\(api)/snapshot", json: #"{"sections":[{"id":"numbers","items":[\#(start)]}]}"#)
        #expect(put.status == 200)

        let (width, height) = (400, 300)
        var top = 0
        var stream = try await live.events("/demos/numbers/events?width=\(width)&height=\(height)&top=0", cookie: cookie)
        var client = WindowClient()
        client.apply(try await next(&stream))
        var model = (1...300).map { "n\($0)" }

        /// Reads events until the client has `version`.
        func follow(to version: Int) async throws {
            while client.version < version { client.apply(try await next(&stream)) }
        }
        func operate(_ operations: String) async throws {
            let response = try await live.postJSON("\(api)/operations", #"{"operations":[\#(operations)]}"#)
            #expect(response.status == 200, "\(operations): \(response.text)")
            try await follow(to: object(response)["version"] as? Int ?? Int.max)
        }

        for step in 0..<60 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // insert a few items before a random one
                let anchor = model[Int.random(in: 0..<model.count, using: &random)]
                let count = Int.random(in: 1...4, using: &random)
                let ids = (nextNumber..<(nextNumber + count)).map { "n\($0)" }
                nextNumber += count
                try await operate(#"{"op":"insertItems","items":[\#(ids.map { "\"\($0)\"" }.joined(separator: ","))],"beforeItem":"\#(anchor)"}"#)
                model.insert(contentsOf: ids, at: model.firstIndex(of: anchor) ?? 0)
            case 1 where model.count > 20:  // delete a few
                let doomed = Set((0..<Int.random(in: 1...5, using: &random)).map { _ in model[Int.random(in: 0..<model.count, using: &random)] })
                try await operate(#"{"op":"deleteItems","items":[\#(doomed.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
                model.removeAll { doomed.contains($0) }
            case 2:  // move one
                let item = model[Int.random(in: 0..<model.count, using: &random)]
                let anchor = model[Int.random(in: 0..<model.count, using: &random)]
                guard item != anchor else { continue }
                try await operate(#"{"op":"moveItem","item":"\#(item)","beforeItem":"\#(anchor)"}"#)
                model.removeAll { $0 == item }
                model.insert(item, at: model.firstIndex(of: anchor) ?? 0)
            case 5:  // the browser measures some of the rows it holds (self-sizing): a `window` event moves them
                let held = client.cells.keys.filter { $0.hasPrefix("n") }.sorted()
                guard !held.isEmpty else { continue }
                var sizes: [String: Int] = [:]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let id = held[Int.random(in: 0..<held.count, using: &random)]
                    let current = Int(client.cells[id]?.frame["h"] ?? 0)
                    sizes[id] = [30, 61, 90, 120].filter { $0 != current }[Int.random(in: 0..<3, using: &random)]
                }
                let body = sizes.map { #""\#($0.key)":{"w":\#(width),"h":\#($0.value)}"# }.joined(separator: ",")
                let response = try await live.postJSON("/demos/numbers/measure", #"{"stream":"\#(client.stream)","sizes":{\#(body)}}"#, cookie: cookie)
                #expect(response.status == 204, "\(response.text)")
                let event = try await next(&stream)
                #expect(event.name == "window" && event.json["measured"] as? Bool == true, "step \(step): \(event.data.prefix(120))")
                client.apply(event)
                for (id, h) in sizes { #expect(client.cells[id]?.frame["h"] == Double(h), "step \(step): \(id) measured \(h)") }
            default:  // move the window, then a no-op change so the stream says when it is done
                top = Int.random(in: 0...(28 + model.count * 44), using: &random)
                let response = try await live.postJSON("/demos/numbers/viewport",
                                                       #"{"stream":"\#(client.stream)","width":\#(width),"height":\#(height),"top":\#(top)}"#,
                                                       cookie: cookie)
                #expect(response.status == 204)
                try await operate(#"{"op":"reconfigureItems","items":["\#(model[0])"]}"#)
            }
            #expect(client.order == model, "step \(step): the order")
        }

        // The window: what a fresh stream at the same viewport is given.
        var fresh = try await live.events("/demos/numbers/events?width=\(width)&height=\(height)&top=\(top)", cookie: cookie)
        var reference = WindowClient()
        reference.apply(try await next(&fresh))
        #expect(reference.version == client.version)
        #expect(client.order == reference.order)
        let differing = Set(client.cells.keys).union(reference.cells.keys).filter { client.cells[$0] != reference.cells[$0] }
        #expect(differing.isEmpty, "the window's ids, frames and HTML (the header's count included) differ at \(differing.sorted().prefix(8))")
        #expect(client.cells.count < 40, "only a window: \(client.cells.count) cells")
        // And what the API's layout says, measured sizes included.
        let layout = try object(await get(port: live.port, "\(api)/layout?width=\(width)&height=\(height)"))
        let frames = Dictionary(((layout["cells"] as? [[String: Any]]) ?? []).compactMap { cell -> (String, [String: Double])? in
            guard let id = cell["id"] as? String else { return nil }
            return (id, WindowClient.frame(cell["frame"]))
        }, uniquingKeysWith: { first, _ in first })
        let misplaced = client.cells.filter { frames[$0.key] != $0.value.frame }.map(\.key)
        #expect(misplaced.isEmpty, "the client's frames differ from the layout route's at \(misplaced.sorted().prefix(8))")
        fresh.socket.close()
        stream.socket.close()
        await live.stop()
    }
}

@Suite("Live window: sessions sharing search steps", .stopsLiveServers)
struct LiveSharedTransitionTests {
    @Test("sessions typing the same queries share transitions and windows, and each client ends with its own list's order and window", arguments: [1, 2])
    func sharedSteps(seed: Int) async throws {
        var random = SeededRandom(seed: UInt64(seed))
        let live = try await LiveServer.start()
        let words = ["", "k", "ka", "kan", "m", "mo", "mon", "b", "be", "ben"]
        let (width, height) = (1024, 768)
        struct Typist { var cookie: String; var stream: EventReader; var client: WindowClient; var top: Int }
        var typists: [Typist] = []
        for index in 0..<4 {
            let cookie = try await live.newSession("/demos/mountains")
            // Two at the top (their windows are shared), two further down (their own).
            let top = index < 2 ? 0 : 2000 * index
            var stream = try await live.events("/demos/mountains/events?width=\(width)&height=\(height)&top=\(top)", cookie: cookie)
            var client = WindowClient()
            client.apply(try await next(&stream))
            typists.append(Typist(cookie: cookie, stream: stream, client: client, top: top))
        }
        for step in 0..<40 {
            let index = Int.random(in: 0..<typists.count, using: &random)
            if Int.random(in: 0..<6, using: &random) == 0 {
                typists[index].top = Int.random(in: 0...20_000, using: &random)
                let response = try await live.postJSON("/demos/mountains/viewport",
                                                       #"{"stream":"\#(typists[index].client.stream)","width":\#(width),"height":\#(height),"top":\#(typists[index].top)}"#,
                                                       cookie: typists[index].cookie)
                #expect(response.status == 204)
            }
            let word = words[Int.random(in: 0..<words.count, using: &random)]
            let response = try await live.postJSON("/demos/mountains/actions/search", #"{"query":"\#(word)","seq":\#(step + 1)}"#,
                                                   cookie: typists[index].cookie)
            #expect(response.status == 200)
            let version = object(response)["version"] as? Int ?? Int.max
            while typists[index].client.version < version { typists[index].client.apply(try await next(&typists[index].stream)) }
        }
        for typist in typists {
            var fresh = try await live.events("/demos/mountains/events?width=\(width)&height=\(height)&top=\(typist.top)", cookie: typist.cookie)
            var reference = WindowClient()
            reference.apply(try await next(&fresh))
            var client = typist.client
            var stream = typist.stream
            // Window events for a moved viewport may still be on the way: read them until the
            // client holds what a fresh stream holds (a client that never does fails at the read's
            // hang guard; "until quiet for 0.3 s" raced a busy machine).
            while !(client.version == reference.version && client.order == reference.order && client.cells == reference.cells) {
                client.apply(try await next(&stream))
            }
            #expect(reference.version == client.version)
            #expect(client.order == reference.order)
            let differing = Set(client.cells.keys).union(reference.cells.keys).filter { client.cells[$0] != reference.cells[$0] }
            #expect(differing.isEmpty, "the window differs at \(differing.sorted().prefix(8))")
            fresh.socket.close()
            stream.socket.close()
        }
        await live.stop()
    }
}
