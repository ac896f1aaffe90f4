import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import SeededRandom
import Testing

/// A list shaped like the Mountains demo's (1,467 items, a 1024×768 window of 3 columns × 37
/// rows of cells), and the events a search sends for it: the first snapshot, then a changeset
/// per keystroke (deleted and inserted ids, then every visible cell with its frame and HTML),
/// as `EventData` with the ids and the cells as shared parts, as the web layer sends them.
struct MountainsLikeEvents {
    let names: [String]
    let heights: [Int]

    init(count: Int = 1_467, seed: UInt64 = 22) {
        var rng = SeededRandom(seed: seed)
        let syllables = ["ben", "mor", "ka", "an", "mon", "te", "al", "pi", "ro", "sa", "gh", "las", "ne", "vis", "dor", "ang"]
        var names: [String] = [], heights: [Int] = []
        for _ in 0..<count {
            let words = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (0..<Int.random(in: 1...3, using: &rng)).map { _ in syllables.randomElement(using: &rng) ?? "a" }.joined().capitalized
            }
            names.append(words.joined(separator: " "))
            heights.append(Int.random(in: 300...8_800, using: &rng))
        }
        self.names = names
        self.heights = heights
    }

    static let queries = ["k", "ka", "kan", "kang", "kan", "ka", "k", "", "m", "mo", "mon", "mont", "monte", "mont", "mon", "mo", "m",
                          "", "b", "be", "ben", "ben ", "ben m", "ben", "be", "b", "", "a", "al", "alp", "al", "a", ""]

    func matches(_ query: String) -> [Int] {
        query.isEmpty ? Array(names.indices) : names.indices.filter { names[$0].lowercased().contains(query) }
    }

    private func ids(_ indices: [Int]) -> String { indices.map { "\"m\(String(format: "%04d", $0))\"" }.joined(separator: ",") }

    private func cells(_ indices: [Int]) -> String {
        indices.prefix(111).enumerated().map { position, index in
            "{\"id\":\"m\(String(format: "%04d", index))\",\"kind\":\"item\",\"section\":\"main\",\"index\":\(position),"
                + "\"frame\":{\"x\":\(10 + 338 * (position % 3)),\"y\":\(10 + 42 * (position / 3)),\"w\":328,\"h\":32},"
                + "\"html\":\"\\u003cspan class=\\\"name\\\">\(names[index])\\u003c/span>\\u003cspan class=\\\"height\\\">\(heights[index]) m\\u003c/span>\"}"
        }.joined(separator: ",")
    }

    func snapshot() -> EventData {
        let all = matches("")
        return EventData(head: "{\"version\":1,\"status\":\"\(names.count) mountains\",\"sections\":[{\"id\":\"main\",\"items\":[",
                         shared: [SharedEventBytes(ids(all)), SharedEventBytes("]}],\"cells\":[\(cells(all))]")], tail: "}")
    }

    /// The changeset from `previous`'s results to `query`'s.
    func keystroke(version: Int, from previous: String, to query: String) -> EventData {
        let before = matches(previous), after = matches(query)
        let kept = Set(before), remaining = Set(after)
        let deleted = before.filter { !remaining.contains($0) }
        let inserted = after.filter { !kept.contains($0) }
        return EventData(head: "{\"version\":\(version),\"animated\":true,\"state\":{\"query\":\"\(query)\"},",
                         shared: [SharedEventBytes("\"deleted\":[\(ids(deleted))],\"inserted\":[\(ids(inserted))]"),
                                  SharedEventBytes(",\"cells\":[\(cells(after))],\"left\":[],\"updated\":[]")], tail: "}")
    }
}

@Suite("Event streams: gzip pays for itself")
struct EventStreamCompressionRatioTests {
    @Test("the first Mountains-sized event is at most 12,000 bytes with gzip and a typed sequence at most 0.25× its plain bytes; the client decodes every byte exactly")
    func mountainsRatios() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let list = MountainsLikeEvents()
        let snapshot = list.snapshot()
        var keystrokes: [EventData] = []
        var previous = ""
        for (index, query) in MountainsLikeEvents.queries.enumerated() {
            keystrokes.append(list.keystroke(version: index + 2, from: previous, to: query))
            previous = query
        }
        let sequence = keystrokes
        let (firstWire, typedWire, blocks) = try await offPool { () -> (Int, Int, [[String]]) in
            var events = try GzipEventReader.open(port: port, acceptEncoding: "gzip, deflate, br, zstd")
            defer { events.reader.socket.close() }
            _ = try events.nextBlock()
            guard let stream = hub.all.first else { throw ClientError("no stream") }
            var blocks: [[String]] = []
            var before = events.compressedBytes
            stream.send(event: "snapshot", id: "1", data: snapshot)
            blocks.append(try events.nextBlock())
            let firstWire = events.compressedBytes - before
            before = events.compressedBytes
            // One at a time, each decoded before the next is sent: every event is flushed whole.
            for (index, data) in sequence.enumerated() {
                stream.send(event: "changeset", id: "\(index + 2)", data: data)
                blocks.append(try events.nextBlock())
            }
            return (firstWire, events.compressedBytes - before, blocks)
        }
        let expected = [["event: snapshot", "id: 1", "data: \(snapshot.text)"]]
            + sequence.enumerated().map { ["event: changeset", "id: \($0.offset + 2)", "data: \($0.element.text)"] }
        #expect(blocks.count == expected.count)
        for (block, want) in zip(blocks, expected) where block != want {
            Issue.record("decoded event differs: \(block.prefix(2)) vs \(want.prefix(2))")
        }
        let firstPlain = snapshot.byteCount
        let typedPlain = sequence.reduce(0) { $0 + $1.byteCount }
        #expect(firstPlain > 30_000, "a Mountains-sized first event: \(firstPlain) bytes")
        #expect(firstWire <= 12_000, "first event: \(firstWire) bytes on the wire for \(firstPlain) plain")
        #expect(Double(typedWire) <= 0.25 * Double(typedPlain),
                "typed sequence: \(typedWire) bytes on the wire for \(typedPlain) plain (\(Double(typedWire) / Double(typedPlain))×)")
    }

    @Test("property: events in parts (unflushed until their end), splices, heartbeats that free the state, and fresh states after them decode to exactly the bytes sent; CRC and length check", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func encoderHistoryDecodes(seed: UInt64) async throws {
        // CPU-bound: off the cooperative pool, where the servers of this phase's socket tests run.
        try await offPool { try Self.encoderHistoryDecodes(seed: seed) }
    }

    private static func encoderHistoryDecodes(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let shared = (0..<3).map { _ in SharedEventBytes(SharedEventBytesTests.ids(Int.random(in: 1...8_000, using: &rng), &rng)) }
        let encoder = try #require(GzipEncoder(EventStreamCompression()))
        var wire: [UInt8] = [], plain: [UInt8] = []
        var released = 0
        for _ in 0..<Int.random(in: 10...40, using: &rng) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                // One event in parts: the last flushes; a splice in the middle flushes first.
                let parts = Int.random(in: 1...4, using: &rng)
                for index in 0..<parts {
                    if Bool.random(using: &rng) {
                        let text = SharedEventBytesTests.ids(Int.random(in: 0...3000, using: &rng), &rng)
                        #expect(text.withUnsafeBufferPointer { encoder.compress($0, appendingTo: &wire, flush: index == parts - 1) })
                        plain += text
                    } else {
                        #expect(encoder.compress([], appendingTo: &wire))
                        let part = shared[Int.random(in: 0..<shared.count, using: &rng)]
                        #expect(encoder.splice(part, deflated: Bool.random(using: &rng), appendingTo: &wire))
                        plain += part.bytes
                    }
                }
                #expect(encoder.compress([], appendingTo: &wire))
            case 1:
                let echo = Array(plain.suffix(Int.random(in: 1...20_000, using: &rng)))
                #expect(encoder.compress(echo, appendingTo: &wire))
                plain += echo
            default:
                let comment = Array(": heartbeat\n\n".utf8)
                let wasActive = encoder.isActive
                #expect(encoder.heartbeat(comment, appendingTo: &wire))
                if wasActive && !encoder.isActive { released += 1 }
                plain += comment
            }
        }
        #expect(encoder.compress([], appendingTo: &wire, finish: true))
        let (decoded, ended) = try GzipEventReader.Inflater().inflate(wire)
        #expect(ended, "the member ends, its CRC-32 and length verified by zlib")
        #expect(decoded == plain)
        #expect(released > 0 || seed > 3, "seed \(seed) freed the state \(released) times")
    }

    @Test("a stream idle between two heartbeats frees its deflate state; the next events and the end of the member still decode exactly")
    func idleStreamFreesItsState() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let text = String(repeating: "{\"id\":\"m0042\",\"frame\":{\"x\":10,\"y\":52}},", count: 200)
        let result = try await offPool { () -> ([[String]], [Bool], Bool) in
            var events = try GzipEventReader.open(port: port, acceptEncoding: "gzip")
            defer { events.reader.socket.close() }
            guard let stream = hub.all.first else { throw ClientError("no stream") }
            var blocks = [try events.nextBlock()]
            var active: [Bool] = []
            stream.send(event: "a", data: text)
            blocks.append(try events.nextBlock())
            stream.heartbeat()  // an event since the last heartbeat: the state stays
            blocks.append(try events.nextBlock())
            active.append(stream.hasDeflateState)
            stream.heartbeat()  // nothing since: freed
            blocks.append(try events.nextBlock())
            active.append(stream.hasDeflateState)
            stream.send(event: "b", data: text)
            blocks.append(try events.nextBlock())
            active.append(stream.hasDeflateState)
            // One at a time: a heartbeat is skipped while earlier bytes are unsent.
            for _ in 0..<2 {
                stream.heartbeat()
                blocks.append(try events.nextBlock())
            }
            active.append(stream.hasDeflateState)
            stream.close()
            return (blocks, active, try events.readToEnd())
        }
        let (blocks, active, clean) = result
        #expect(blocks == [[": connected"], ["event: a", "data: \(text)"], [": heartbeat"], [": heartbeat"], ["event: b", "data: \(text)"],
                           [": heartbeat"], [": heartbeat"]])
        #expect(active == [true, false, true, false])
        #expect(clean, "the member (CRC-32 and length) and the body end cleanly after the state was freed")
    }

    @Test("the default level deflates a typed sequence clearly smaller than level 1 (issue 22: bytes per keystroke)")
    func defaultLevelPays() throws {
        let list = MountainsLikeEvents()
        var events: [[UInt8]] = [Array(list.snapshot().text.utf8)]
        var previous = ""
        for (index, query) in MountainsLikeEvents.queries.enumerated() {
            events.append(Array(list.keystroke(version: index + 2, from: previous, to: query).text.utf8))
            previous = query
        }
        /// The bytes of the keystrokes' events (after the snapshot) in one stream, each flushed.
        func keystrokeBytes(_ settings: EventStreamCompression) throws -> Int {
            let encoder = try #require(GzipEncoder(settings))
            var total = 0
            for (index, event) in events.enumerated() {
                var output: [UInt8] = []
                #expect(encoder.compress(event, appendingTo: &output))
                if index > 0 { total += output.count }
            }
            return total
        }
        let chosen = try keystrokeBytes(EventStreamCompression())
        let fastest = try keystrokeBytes(EventStreamCompression(level: 1))
        #expect(Double(chosen) <= 0.93 * Double(fastest), "default \(chosen) B, level 1 \(fastest) B")
    }
}
