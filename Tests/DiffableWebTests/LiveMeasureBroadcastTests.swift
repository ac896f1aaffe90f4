import CompositionalLayout
import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb

/// Issue 34, what the self-sizing stream promises (docs/protocol.md, "Self-sizing cells"): the
/// content size, and so the scrollbar, is always exact. A measurement reaches every stream of
/// its width whose content size changed, not only those whose held cells moved; headers never
/// size themselves, so their measurements are refused; a deleted item's size goes with it; and
/// the streams of a width whose sizes are forgotten are told at once.
///
/// Each test proves that an event was *not* sent the old way without a clock: it makes a later,
/// unrelated event (a resize, a change) and checks which one the stream gets first.
@Suite("Self-sizing: every stream's content size stays exact", .stopsLiveServers)
struct LiveMeasureBroadcastTests {
    /// A fresh Numbers session with 65 items (`n1` … `n65`: the 5 it starts with, 60 appended).
    func numbers65(_ live: LiveServer) async throws -> String {
        let cookie = try await live.newSession("/demos/numbers")
        let appended = try await live.postJSON("/demos/numbers/actions/append", #"{"count":60}"#, cookie: cookie)
        #expect(appended.status == 200, "\(appended.text)")
        return cookie
    }

    /// An open Numbers stream, its id and the content height of its first event (a `snapshot`).
    struct Stream {
        var reader: EventReader
        var id: String
        var height: Double
    }

    func open(_ live: LiveServer, _ cookie: String, width: Int, height: Int = 300, top: Int = 0) async throws -> Stream {
        var reader = try await live.events("/demos/numbers/events?width=\(width)&height=\(height)&top=\(top)", cookie: cookie)
        let first = try await next(&reader)
        #expect(first.name == "snapshot")
        return Stream(reader: reader, id: try #require(first.json["stream"] as? String), height: try #require(contentHeight(first)))
    }

    func contentHeight(_ event: SSEEvent) -> Double? { (event.json["contentSize"] as? [String: Any])?["h"] as? Double }

    /// A window event's cell by id (a held cell names only the parts of its frame that changed).
    func cell(_ id: String, in event: SSEEvent) -> [String: Any]? {
        (event.json["cells"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    func measure(_ live: LiveServer, _ cookie: String, stream: String, _ sizes: String) async throws -> HTTPResponse {
        try await live.postJSON("/demos/numbers/measure", #"{"stream":"\#(stream)","sizes":{\#(sizes)}}"#, cookie: cookie)
    }

    /// A resize of `stream` (a new height at the same width): a `window` event that no
    /// measurement asked for (a new size always gets one).
    func resize(_ live: LiveServer, _ cookie: String, stream: String, width: Int, height: Int) async throws {
        let moved = try await live.postJSON("/demos/numbers/viewport",
                                            #"{"stream":"\#(stream)","width":\#(width),"height":\#(height),"top":0}"#, cookie: cookie)
        #expect(moved.status == 204, "\(moved.text)")
    }

    /// The API's layout of the session's Numbers list at a viewport.
    func layoutRoute(_ live: LiveServer, _ cookie: String, width: Int, height: Int = 300) async throws -> [String: Any] {
        let share = try #require(live.app.shareID(cookie: cookie))
        let answer = try await get(port: live.port, "/api/sessions/\(share)/demos/numbers/layout?width=\(width)&height=\(height)")
        #expect(answer.status == 200)
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    func routeCell(_ id: String, in layout: [String: Any]) -> [String: Any]? {
        (layout["cells"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    @Test("a measurement that changes the content size reaches every stream of that width, also one whose cells did not move")
    func contentSizeReachesEveryStream() async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        var x = try await open(live, cookie, width: 390, top: 0)
        var y = try await open(live, cookie, width: 390, top: 2500)
        #expect(x.height == 2888 && y.height == 2888, "65 estimated rows of 44 px under a header")

        // Y shows the last row; X shows the first screen, far from it.
        let answer = try await measure(live, cookie, stream: y.id, #""n65":{"w":390,"h":120}"#)
        #expect(answer.status == 204, "\(answer.text)")
        let atY = try await next(&y.reader)
        #expect(atY.name == "window" && atY.json["measured"] as? Bool == true)
        #expect(contentHeight(atY) == 2964, "44 px estimated, 120 measured: 76 more")

        // Then an unrelated event for X: its next window event must be the measurement's.
        try await resize(live, cookie, stream: x.id, width: 390, height: 320)
        let told = try await next(&x.reader)
        #expect(told.name == "window")
        try #require(told.json["measured"] as? Bool == true, "X is told of the new content size first: \(told.data.prefix(200))")
        #expect(contentHeight(told) == 2964)
        #expect((told.json["cells"] as? [[String: Any]])?.isEmpty == true, "none of X's cells moved")
        let resized = try await next(&x.reader)
        #expect(resized.name == "window" && resized.json["measured"] == nil && contentHeight(resized) == 2964)

        // The layout route agrees with both streams.
        let layout = try await layoutRoute(live, cookie, width: 390)
        #expect((layout["contentSize"] as? [String: Any])?["h"] as? Double == 2964)
        #expect(routeCell("n65", in: layout)?["measured"] as? Bool == true)
        x.reader.socket.close()
        y.reader.socket.close()
    }

    @Test("a measurement that changes nothing at a stream's width sends it nothing")
    func otherWidthsAreQuiet() async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        var phone = try await open(live, cookie, width: 390)
        var desktop = try await open(live, cookie, width: 1024)
        #expect(try await measure(live, cookie, stream: phone.id, #""n1":{"w":390,"h":90}"#).status == 204)
        let measured = try await next(&phone.reader)
        #expect(measured.name == "window" && contentHeight(measured) == phone.height + 46)
        // The desktop's next event is the change below, not a window: its width has no measurement.
        let removed = try await live.postJSON("/demos/numbers/actions/removeLast", "{}", cookie: cookie)
        #expect(removed.status == 200)
        let change = try await next(&desktop.reader)
        #expect(change.name == "changeset", "\(change.name ?? "") \(change.data.prefix(200))")
        #expect(contentHeight(change) == desktop.height - 44)
        phone.reader.socket.close()
        desktop.reader.socket.close()
    }

    @Test("a header's measurement is refused with 422 naming it, and nothing of the message is kept", arguments: [
        #""header:numbers":{"w":390,"h":60}"#,
        #""n1":{"w":390,"h":90},"header:numbers":{"w":390,"h":60}"#,
    ])
    func headerMeasurementRefused(sizes: String) async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        var x = try await open(live, cookie, width: 390)
        let before = try await layoutRoute(live, cookie, width: 390)
        let header = try #require(routeCell("header:numbers", in: before))
        #expect(header["fit"] == nil, "a header never sizes itself")

        let answer = try await measure(live, cookie, stream: x.id, sizes)
        try #require(answer.status == 422, "\(answer.text)")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(error["error"] as? String == "invalid_measurement")
        #expect((error["message"] as? String)?.contains("header:numbers") == true, "the message names the key")

        let list = try #require(live.app.sessionList(cookie: cookie, demo: "numbers"))
        #expect(list.measuredSizes(forWidth: 390).isEmpty, "nothing kept")
        let after = try await layoutRoute(live, cookie, width: 390)
        #expect((after["contentSize"] as? [String: Any])?["h"] as? Double == x.height)
        #expect(routeCell("n1", in: after)?["frame"] as? [String: Double] == routeCell("n1", in: before)?["frame"] as? [String: Double],
                "the rows did not move")
        // Nor was any stream told: its next event is the change below.
        #expect(try await live.postJSON("/demos/numbers/actions/removeLast", "{}", cookie: cookie).status == 200)
        let change = try await next(&x.reader)
        #expect(change.name == "changeset", "\(change.name ?? "") \(change.data.prefix(200))")
        x.reader.socket.close()
    }

    @Test("a deleted item's measured size is dropped: inserted again, it starts at its estimate")
    func deletedItemForgetsItsSize() async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        var y = try await open(live, cookie, width: 390, top: 2500)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "numbers"))
        #expect(try await measure(live, cookie, stream: y.id, #""n65":{"w":390,"h":120},"n64":{"w":390,"h":100}"#).status == 204)
        let measured = try await next(&y.reader)
        #expect(measured.name == "window" && contentHeight(measured) == y.height + 76 + 56)
        let heldBefore = list.measurements.withLock(\.heldBytes)

        // Removing the last row deletes n65: its size goes; n64's stays.
        #expect(try await live.postJSON("/demos/numbers/actions/removeLast", "{}", cookie: cookie).status == 200)
        let removed = try await next(&y.reader)
        #expect(removed.name == "changeset")
        let kept = list.measuredSizes(forWidth: 390)
        #expect(kept.sizes["n65"] == nil && kept.sizes["n64"]?.height == 100)
        #expect(list.measurements.withLock(\.heldBytes) < heldBefore, "the dropped size is no longer held")

        // A script inserts n65 again: a new cell, at its estimate.
        let share = try #require(live.app.shareID(cookie: cookie))
        let inserted = try await live.postJSON("/api/sessions/\(share)/demos/numbers/operations",
                                               #"{"operations":[{"op":"appendItems","items":["n65"]}]}"#)
        #expect(inserted.status == 200, "\(inserted.text)")
        let insert = try await next(&y.reader)
        #expect(insert.name == "changeset")
        #expect(contentHeight(insert) == y.height + 56, "only n64's measurement counts")
        let layout = try await layoutRoute(live, cookie, width: 390)
        let back = try #require(routeCell("n65", in: layout))
        #expect(back["measured"] == nil && (back["frame"] as? [String: Any])?["h"] as? Double == 44)
        #expect(routeCell("n64", in: layout)?["measured"] as? Bool == true)
        y.reader.socket.close()
    }

    @Test("a moved item keeps its measured size")
    func movedItemKeepsItsSize() async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        var x = try await open(live, cookie, width: 390)
        #expect(try await measure(live, cookie, stream: x.id, #""n2":{"w":390,"h":70}"#).status == 204)
        _ = try await next(&x.reader)
        let moved = try await live.postJSON("/demos/numbers/actions/move", #"{"from":1,"to":30}"#, cookie: cookie)
        #expect(moved.status == 200, "\(moved.text)")
        let change = try await next(&x.reader)
        #expect(change.name == "changeset" && contentHeight(change) == x.height + 26)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "numbers"))
        #expect(list.measuredSizes(forWidth: 390).sizes["n2"]?.height == 70)
        x.reader.socket.close()
    }

    @Test("when a fourth width forgets the oldest width's sizes, that width's streams get their estimated layout at once")
    func forgottenWidthIsTold() async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        var streams: [Stream] = []
        for width in [320, 390, 768, 1024] { streams.append(try await open(live, cookie, width: width)) }
        // n1 (on every first screen) measured 100 px tall at each width, oldest first.
        for index in streams.indices {
            let width = [320, 390, 768, 1024][index]
            let answer = try await measure(live, cookie, stream: streams[index].id, #""n1":{"w":\#(width),"h":100}"#)
            #expect(answer.status == 204, "\(answer.text)")
            let event = try await next(&streams[index].reader)
            #expect(event.name == "window" && contentHeight(event) == streams[index].height + 56)
        }
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "numbers"))
        #expect(list.measuredSizes(forWidth: 320).isEmpty, "at most three widths: 320 px was measured least recently")

        // Then an unrelated event for the 320-px stream: its next window event must be the one
        // that puts n1 back at its estimate.
        try await resize(live, cookie, stream: streams[0].id, width: 320, height: 320)
        let told = try await next(&streams[0].reader)
        #expect(told.name == "window")
        try #require(told.json["measured"] as? Bool == true, "told at once, before the resize: \(told.data.prefix(200))")
        #expect(contentHeight(told) == streams[0].height, "the estimated content size again")
        #expect((cell("n1", in: told)?["frame"] as? [String: Any])?["h"] as? Double == 44)
        let resized = try await next(&streams[0].reader)
        #expect(resized.name == "window" && resized.json["measured"] == nil)
        let layout = try await layoutRoute(live, cookie, width: 320)
        #expect((layout["contentSize"] as? [String: Any])?["h"] as? Double == streams[0].height)
        #expect(routeCell("n1", in: layout)?["measured"] == nil)
        for stream in streams { stream.reader.socket.close() }
    }

    @Test("a body that is not a measurement message is malformed_json", arguments: [
        "not json",
        #"{"stream":"S","sizes":[]}"#,
        #"{"stream":"S","sizes":{"n1":{"w":"tall","h":1}}}"#,
    ])
    func malformedBody(body: String) async throws {
        let live = try await LiveServer.start()
        let cookie = try await numbers65(live)
        let answer = try await live.postJSON("/demos/numbers/measure", body, cookie: cookie)
        #expect(answer.status == 400, "\(answer.text)")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(error["error"] as? String == "malformed_json")
    }
}

@Suite("Measured sizes: deleted items and forgotten widths")
struct MeasuredSizesForgettingTests {
    func size(_ h: Double) -> LayoutPixelSize { LayoutPixelSize(width: 100, height: h) }

    @Test("forgetting items drops them at every width, keeps the rest, and restores the signature of a table without them")
    func forgetItems() {
        var sizes = MeasuredSizes(), without = MeasuredSizes()
        for width in [390.0, 1024] {
            sizes.record([("a", size(50)), ("b", size(60))], width: width)
            without.record([("b", size(60))], width: width)
        }
        let before = sizes.heldBytes
        let dropped = sizes.forget(["a", "gone"])
        #expect(dropped)
        for width in [390.0, 1024] {
            #expect(sizes.table(forWidth: width).sizes == ["b": size(60)])
            #expect(sizes.table(forWidth: width).signature == without.table(forWidth: width).signature)
        }
        #expect(sizes.heldBytes == without.heldBytes && sizes.heldBytes < before)
        let again = sizes.forget(["a"])
        #expect(!again, "nothing left to drop")
    }

    @Test("an item forgotten and measured again counts as newly measured when the oldest half goes")
    func forgottenThenMeasuredIsNew() {
        var sizes = MeasuredSizes()
        let ids = (0..<MeasuredSizes.maximumCells).map { "c\($0)" }
        sizes.record(ids.map { ($0, size(50)) }, width: 390)
        let dropped = sizes.forget(["c0"])
        #expect(dropped)
        sizes.record([("c0", size(70))], width: 390)
        let recorded = sizes.record([("extra", size(50))], width: 390)
        #expect(recorded.forgot)
        let table = sizes.table(forWidth: 390)
        #expect(table.sizes["c0"]?.height == 70, "measured last: not among the oldest")
        #expect(table.sizes["c1"] == nil && table.sizes["extra"] != nil)
    }

    @Test("a fourth width names the width it forgot; a message that keeps nothing forgets none")
    func forgottenWidth() {
        var sizes = MeasuredSizes()
        for width in [320.0, 390, 768] {
            let recorded = sizes.record([("a", size(width))], width: width)
            #expect(recorded.forgottenWidth == nil)
        }
        let empty = sizes.record([], width: 1024)
        #expect(!empty.changed && empty.forgottenWidth == nil)
        #expect(!sizes.table(forWidth: 320).isEmpty, "nothing to keep at 1024: 320 stays")
        let fourth = sizes.record([("a", size(1))], width: 1024)
        #expect(fourth.changed && fourth.forgottenWidth == 320)
        #expect(sizes.table(forWidth: 320).isEmpty)
    }
}
