import CompositionalLayout
import DiffableDataSources
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Issue 23, self-sizing: a browser measures the cells whose height the layout estimates
/// (`fit`), `POST …/measure` lays the list out again at that width, and the streams that show
/// it get the moved frames in a `window` event (`measured`).
@Suite("Self-sizing: measured cells move what follows them", .stopsLiveServers)
struct LiveSelfSizingTests {
    func frame(_ cell: [String: Any]) -> (y: Double, h: Double)? {
        guard let frame = cell["frame"] as? [String: Any], let y = frame["y"] as? Double, let h = frame["h"] as? Double else { return nil }
        return (y, h)
    }

    /// One part of a frame as an event gives it: a held cell's frame names only what changed.
    func part(_ cell: [String: Any], _ key: String) -> Double? { (cell["frame"] as? [String: Any])?[key] as? Double }

    /// A phone's Mountains stream (one column of 44-px estimated rows, 10 px apart) and its first event.
    func phoneStream(_ live: LiveServer) async throws -> (cookie: String, stream: EventReader, id: String, cells: [[String: Any]], height: Double) {
        let cookie = try await live.newSession("/demos/mountains")
        var stream = try await live.events("/demos/mountains/events?width=390&height=844&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let id = try #require(snapshot.json["stream"] as? String)
        let cells = try #require(snapshot.json["cells"] as? [[String: Any]])
        let height = try #require((snapshot.json["contentSize"] as? [String: Any])?["h"] as? Double)
        return (cookie, stream, id, cells, height)
    }

    @Test("cells with an estimated height are marked fit; a measured one grows and the cells after it move down")
    func measurementMovesWhatFollows() async throws {
        let live = try await LiveServer.start()
        let (cookie, opened, streamID, cells, height) = try await phoneStream(live)
        var stream = opened
        #expect(cells.allSatisfy { $0["fit"] as? Int == 1 }, "Mountains' rows size themselves")
        let first = try #require(cells.first?["id"] as? String), second = try #require(cells.dropFirst().first?["id"] as? String)
        #expect(frame(cells[0])?.h == 44 && frame(cells[1])?.y == 64)

        let answer = try await live.postJSON("/demos/mountains/measure",
                                             #"{"stream":"\#(streamID)","sizes":{"\#(first)":{"w":370,"h":100}}}"#, cookie: cookie)
        #expect(answer.status == 204, "\(answer.text)")
        let window = try await next(&stream)
        #expect(window.name == "window")
        #expect(window.json["measured"] as? Bool == true)
        let moved = try #require(window.json["cells"] as? [[String: Any]])
        let byID = Dictionary(moved.compactMap { cell in (cell["id"] as? String).map { ($0, cell) } }, uniquingKeysWith: { a, _ in a })
        #expect(byID[first].flatMap { part($0, "h") } == 100, "the measured row takes its height: \(window.data.prefix(300))")
        #expect(byID[second].flatMap { part($0, "y") } == 120, "the next row follows it: 10 + 100 + 10")
        let grown = try #require((window.json["contentSize"] as? [String: Any])?["h"] as? Double)
        #expect(grown == height + 56)

        // The API's layout reports the measured frame, and which cells size themselves.
        let shareID = try #require(live.app.shareID(cookie: cookie))
        let layout = try await get(port: live.port, "/api/sessions/\(shareID)/demos/mountains/layout?width=390&height=844")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(layout.body)) as? [String: Any])
        let laid = try #require(body["cells"] as? [[String: Any]])
        let measuredCell = try #require(laid.first { $0["id"] as? String == first })
        #expect(measuredCell["measured"] as? Bool == true && measuredCell["fit"] as? Bool == true && frame(measuredCell)?.h == 100)
        let other = try #require(laid.first { $0["id"] as? String == second })
        #expect(other["measured"] == nil && other["fit"] as? Bool == true && frame(other)?.y == 120)
        // Another width keeps its estimates: a phone's measurement is not a desktop's.
        let desktop = try #require(live.app.sessionList(cookie: cookie, demo: "mountains")).layout(for: LayoutContainer(width: 1024, height: 800))
        #expect(desktop.allCells.prefix(3).allSatisfy { $0.frame.height == 44 })
        stream.socket.close()
    }

    @Test("kept sizes count against the session's memory budget; past it a measurement is refused with 422 and nothing is kept")
    func measurementsAreBudgeted() async throws {
        // Room for the list and its first event, and for the sizes of about a third of its rows.
        let live = try await LiveServer.start { $0.sessionMemoryBytes = 100 << 10; $0.memoryTotalBytes = 0 }
        let (cookie, stream, streamID, _, _) = try await phoneStream(live)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "mountains"))
        let ids = list.dataSource.snapshot().itemIdentifiers
        let before = list.memory.heldBytes
        func measure(_ batch: ArraySlice<String>) async throws -> HTTPResponse {
            let sizes = batch.map { #""\#($0)":{"w":370,"h":66}"# }.joined(separator: ",")
            return try await live.postJSON("/demos/mountains/measure", #"{"stream":"\#(streamID)","sizes":{\#(sizes)}}"#, cookie: cookie)
        }
        let first = try await measure(ids.prefix(500))
        #expect(first.status == 204, "\(first.text)")
        let kept = list.measuredSizes(forWidth: 390)
        #expect(kept.count == 500, "held before: \(before) B")
        #expect(list.memory.heldBytes - before >= 500 * MemoryCost.measuredCellOverhead, "the kept sizes are charged to the list")
        // The rest of the list (967 rows) would pass 100 KiB: refused whole, nothing more kept.
        let refused = try await measure(ids.dropFirst(500))
        #expect(refused.status == 422, "\(refused.text)")
        #expect(refused.text.contains("memory_budget"))
        #expect(list.measuredSizes(forWidth: 390).count == 500)
        #expect(list.measuredSizes(forWidth: 390).signature == kept.signature)
        stream.socket.close()
    }

    @Test("a size the server already has sends nothing; the next real change is the next event")
    func unchangedMeasurementIsQuiet() async throws {
        let live = try await LiveServer.start()
        let (cookie, opened, streamID, cells, _) = try await phoneStream(live)
        var stream = opened
        let first = try #require(cells.first?["id"] as? String), third = try #require(cells.dropFirst(2).first?["id"] as? String)
        func measure(_ id: String, _ h: Double) async throws -> Int {
            try await live.postJSON("/demos/mountains/measure", #"{"stream":"\#(streamID)","sizes":{"\#(id)":{"w":370,"h":\#(h)}}}"#, cookie: cookie).status
        }
        #expect(try await measure(first, 80) == 204)
        let grown = try await next(&stream)
        #expect(grown.name == "window" && grown.data.contains(#""h":80"#))
        #expect(try await measure(first, 80.2) == 204, "the same size again (within a quarter pixel)")
        #expect(try await measure(third, 61) == 204)
        let window = try await next(&stream)
        let moved = try #require(window.json["cells"] as? [[String: Any]])
        #expect(moved.first { $0["id"] as? String == first } == nil, "the first row did not move again: \(window.data.prefix(200))")
        #expect(moved.contains { $0["id"] as? String == third && part($0, "h") == 61 })
        stream.socket.close()
    }

    @Test("bad measurements are refused with a clear error and change nothing", arguments: [
        (#"{"sizes":{}}"#, 400, "malformed_json"),
        (#"{"stream":"S","sizes":{"m1":{"w":10,"h":-1}}}"#, 400, "invalid_measurement"),
        (#"{"stream":"S","sizes":{"m1":{"w":10,"h":100001}}}"#, 400, "invalid_measurement"),
        (#"{"stream":"S","sizes":{"m1":{"w":10}}}"#, 400, "malformed_json"),
        (#"{"stream":"nope","sizes":{"m1":{"w":10,"h":50}}}"#, 404, "unknown_stream"),
    ])
    func refused(body: String, status: Int, code: String) async throws {
        let live = try await LiveServer.start()
        let (cookie, stream, streamID, _, _) = try await phoneStream(live)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "mountains"))
        let before = list.layout(for: LayoutContainer(width: 390, height: 844)).allCells.map(\.frame)
        let answer = try await live.postJSON("/demos/mountains/measure", body.replacingOccurrences(of: "\"S\"", with: "\"\(streamID)\""), cookie: cookie)
        #expect(answer.status == status, "\(answer.text)")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(error["error"] as? String == code && (error["message"] as? String)?.isEmpty == false)
        #expect(list.layout(for: LayoutContainer(width: 390, height: 844)).allCells.map(\.frame) == before)
        stream.socket.close()
    }

    @Test("sizes of cells the list does not have are dropped, not kept")
    func unknownCellsDropped() async throws {
        let live = try await LiveServer.start()
        let (cookie, stream, streamID, cells, _) = try await phoneStream(live)
        let first = try #require(cells.first?["id"] as? String)
        let sizes = (0..<500).map { #""nope\#($0)":{"w":1,"h":1}"# }.joined(separator: ",")
        let answer = try await live.postJSON("/demos/mountains/measure",
                                             #"{"stream":"\#(streamID)","sizes":{\#(sizes),"\#(first)":{"w":370,"h":70}}}"#, cookie: cookie)
        #expect(answer.status == 204)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "mountains"))
        let kept = list.measuredSizes(forWidth: 390)
        #expect(kept.count == 1 && kept.sizes[first]?.height == 70)
        stream.socket.close()
    }

    @Test("more sizes than one message may carry are refused")
    func tooMany() async throws {
        let live = try await LiveServer.start()
        let (cookie, stream, streamID, _, _) = try await phoneStream(live)
        let sizes = (0...WebApp.maximumMeasurements).map { #""m\#($0)":{"w":1,"h":1}"# }.joined(separator: ",")
        let answer = try await live.postJSON("/demos/mountains/measure", #"{"stream":"\#(streamID)","sizes":{\#(sizes)}}"#, cookie: cookie)
        #expect(answer.status == 400 && answer.text.contains("invalid_measurement"))
        stream.socket.close()
    }

    @Test("a cell of fixed height is not marked fit, and its measurement changes nothing")
    func fixedCellsIgnoreMeasurements() async throws {
        let live = try await LiveServer.start()
        let cookie = try await live.newSession("/demos/photos")
        var stream = try await live.events("/demos/photos/events?width=390&height=844&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        let streamID = try #require(snapshot.json["stream"] as? String)
        let cells = try #require(snapshot.json["cells"] as? [[String: Any]])
        let item = try #require(cells.first { $0["kind"] as? String == "item" })
        #expect(cells.allSatisfy { $0["fit"] == nil })
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "photos"))
        let before = list.layout(for: LayoutContainer(width: 390, height: 844)).allCells.map(\.frame)
        let id = try #require(item["id"] as? String)
        let answer = try await live.postJSON("/demos/photos/measure", #"{"stream":"\#(streamID)","sizes":{"\#(id)":{"w":10,"h":900}}}"#, cookie: cookie)
        #expect(answer.status == 204)
        #expect(list.layout(for: LayoutContainer(width: 390, height: 844)).allCells.map(\.frame) == before)
        stream.socket.close()
    }
}

@Suite("Measured sizes: kept by width, bounded", .stopsLiveServers)
struct MeasuredSizesTests {
    func size(_ h: Double) -> LayoutPixelSize { LayoutPixelSize(width: 100, height: h) }

    @Test("a change is a new generation; sub-pixel noise is none; the signature follows the contents")
    func generations() {
        var sizes = MeasuredSizes()
        let recorded = sizes.record([("a", size(50))], width: 390).changed
        #expect(recorded)
        let first = sizes.table(forWidth: 390)
        let noise = sizes.record([("a", size(50.2))], width: 390).changed
        #expect(!noise, "a fifth of a pixel is noise")
        #expect(sizes.table(forWidth: 390).generation == first.generation)
        let taller = sizes.record([("a", size(60))], width: 390).changed
        #expect(taller)
        #expect(sizes.table(forWidth: 390).generation != first.generation)
        let back = sizes.record([("a", size(50))], width: 390).changed
        #expect(back)
        #expect(sizes.table(forWidth: 390).signature == first.signature, "the same contents, the same signature")
        #expect(sizes.table(forWidth: 1024).isEmpty, "another width has none")
    }

    @Test("at most three widths: the one measured least recently is forgotten")
    func widths() {
        var sizes = MeasuredSizes()
        for width in [320.0, 390, 768, 1024] { sizes.record([("a", size(width))], width: width) }
        #expect(sizes.table(forWidth: 320).isEmpty)
        #expect([390.0, 768, 1024].allSatisfy { !sizes.table(forWidth: $0).isEmpty })
    }

    @Test("past the cell bound the oldest half is forgotten")
    func cells() {
        var sizes = MeasuredSizes()
        let ids = (0...MeasuredSizes.maximumCells).map { "c\($0)" }
        let recorded = sizes.record(ids.map { ($0, size(50)) }, width: 390)
        #expect(recorded.forgot && recorded.changed)
        let table = sizes.table(forWidth: 390)
        #expect(table.count <= MeasuredSizes.maximumCells / 2 + 1)
        #expect(table.sizes[ids.last!] != nil && table.sizes["c0"] == nil)
    }

    @Test("the solver gets the same sizes whether the list or the measurements are the smaller")
    func solverSizesEitherWay() throws {
        var snapshot = Snapshot<String, String>()
        try snapshot.appendSections(["a", "b"])
        try snapshot.appendItems((0..<6).map { "i\($0)" }, toSection: "a")
        try snapshot.appendItems((6..<10).map { "i\($0)" }, toSection: "b")
        var few = MeasuredSizes(), many = MeasuredSizes()
        let measured = [("i1", size(50)), ("i7", size(70)), ("header:b", size(30))]
        few.record(measured, width: 390)
        many.record(measured + (100..<120).map { ("gone\($0)", size(90)) }, width: 390)
        let expected: [Int: [Int: LayoutPixelSize]] = [0: [1: size(50)], 1: [1: size(70)]]
        for table in [few.table(forWidth: 390), many.table(forWidth: 390)] {
            let sizes = ListLayout.solverSizes(of: table, in: snapshot)
            #expect(sizes.items == expected)
            #expect(sizes.supplementaries == [SupplementaryPath(kind: CellKind.header.name, section: 1): size(30)])
        }
    }
}
