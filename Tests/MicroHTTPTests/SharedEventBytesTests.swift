import CZlib
import Foundation
@testable import MicroHTTP
import SeededRandom
import Synchronization
import Testing
import HTTPTestSupport

@Suite("Event streams: shared bytes")
struct SharedEventBytesTests {
    /// Identifier-like text (what a changeset's shared part is), with repeats for the compressor to find.
    static func ids(_ count: Int, _ rng: inout SeededRandom) -> [UInt8] {
        Array((0..<count).map { _ in "\"m\(Int.random(in: 0..<3000, using: &rng))-\(Int.random(in: 2...7, using: &rng))\"" }
            .joined(separator: ",").utf8)
    }

    @Test("property: a gzip member with spliced blocks (deflated or stored) decodes to exactly the bytes sent, and its CRC and length check", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func splicedMembersDecode(seed: UInt64) async throws {
        // CPU-bound: off the cooperative pool, where the servers of this phase's socket tests run.
        try await offPool { try Self.splicedMembersDecode(seed: seed) }
    }

    private static func splicedMembersDecode(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let shared = (0..<3).map { _ in SharedEventBytes(Self.ids(Int.random(in: 1...12_000, using: &rng), &rng)) }
        // Encoders with different histories (window sizes, thresholds) splice the same blocks.
        for settings in [EventStreamCompression(), EventStreamCompression(windowBits: 9, minimumBytes: 0), EventStreamCompression(level: 6, windowBits: 15, memoryLevel: 8, minimumBytes: 4096),
                         EventStreamCompression(minimumBytes: 4096), EventStreamCompression(tuning: nil)] {
            let encoder = try #require(GzipEncoder(settings))
            var wire: [UInt8] = []
            var plain: [UInt8] = []
            for _ in 0..<Int.random(in: 5...25, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0, 1:
                    let part = shared[Int.random(in: 0..<shared.count, using: &rng)]
                    #expect(encoder.splice(part, deflated: Bool.random(using: &rng), appendingTo: &wire))
                    plain += part.bytes
                    // What follows often repeats the end of what was spliced: a compressor whose
                    // dictionary did not match the client's window would point at wrong bytes.
                    let echo = Array(part.bytes.suffix(Int.random(in: 1...2000, using: &rng)))
                    #expect(encoder.compress(echo, appendingTo: &wire))
                    plain += echo
                case 2:
                    let text = Self.ids(Int.random(in: 0...9000, using: &rng), &rng)
                    #expect(encoder.compress(text, appendingTo: &wire))
                    plain += text
                default:
                    let text = Array("event: changeset\nid: 42\ndata: {\"version\":42,".utf8)
                    #expect(encoder.compress(text, appendingTo: &wire))
                    plain += text
                }
            }
            #expect(encoder.compress([], appendingTo: &wire, finish: true))
            let inflater = try GzipEventReader.Inflater()
            let (decoded, ended) = try inflater.inflate(wire)
            #expect(ended, "the member ends, its CRC-32 and length verified by zlib")
            #expect(decoded == plain)
        }
    }

    @Test("the match search's tuning holds at level 3 from the first event, after a splice's reset and after storing; elsewhere the level's own")
    func tuningSurvivesResets() throws {
        #expect(EventStreamCompression().tuning == .keystroke)
        #expect(EventStreamCompression(level: 6).tuning == nil, "tuned for level 3 only")
        var rng = SeededRandom(seed: 7)
        // Markup with long repeats (a window's cells): the tuned search stops at 64-byte matches
        // and tries 16 candidates, so its blocks differ from the level's own (32 and 32).
        let cells = Array((0..<400).map { n in "<div class=\"cell\" data-id=\"m\(Int.random(in: 0..<5000, using: &rng))\" style=\"transform: translate(0px, \(n * 44)px)\"><span class=\"name\">Peak \(n % 37)</span></div>" }
            .joined().utf8)
        let shared = SharedEventBytes(Self.ids(3000, &rng))
        func run(_ settings: EventStreamCompression) throws -> (parts: [[UInt8]], plain: [UInt8], wire: [UInt8]) {
            let encoder = try #require(GzipEncoder(settings))
            var wire: [UInt8] = [], plain: [UInt8] = [], parts: [[UInt8]] = []
            for step in 0..<4 {
                let before = wire.count
                if step == 1 { #expect(encoder.splice(shared, deflated: true, appendingTo: &wire)); plain += shared.bytes }
                if step == 2 {  // a small event, stored, then a large one: the level switches back
                    #expect(encoder.compress(Array("event: x\n\n".utf8), appendingTo: &wire)); plain += Array("event: x\n\n".utf8)
                }
                #expect(encoder.compress(cells, appendingTo: &wire))
                plain += cells
                parts.append(Array(wire[before...]))
            }
            #expect(encoder.compress([], appendingTo: &wire, finish: true))
            return (parts, plain, wire)
        }
        let tuned = try run(EventStreamCompression(minimumBytes: 64))
        let untuned = try run(EventStreamCompression(minimumBytes: 64, tuning: nil))
        for (index, (a, b)) in zip(tuned.parts, untuned.parts).enumerated() {
            #expect(a != b, "step \(index): the tuning is in effect (first event, after the splice's reset, after storing)")
        }
        for result in [tuned, untuned] {
            let (decoded, ended) = try GzipEventReader.Inflater().inflate(result.wire)
            #expect(ended && decoded == result.plain)
        }
    }

    @Test("every stream decodes a large event with shared bytes; the shared part is deflated once and compresses")
    func streamsSplice() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        var rng = SeededRandom(seed: 9)
        let shared = SharedEventBytes(Self.ids(12_000, &rng))
        let sharedText = String(decoding: shared.bytes, as: UTF8.self)
        let window = SharedEventBytes("],\"cells\":[]")
        let result = try await offPool { () -> [([[String]], Int)] in
            var readers = try (0..<3).map { index in try GzipEventReader.open(port: port, acceptEncoding: index == 2 ? nil : "gzip") }
            defer { for reader in readers { reader.reader.socket.close() } }
            for index in readers.indices { _ = try readers[index].nextBlock() }
            // A different history per stream before the shared event.
            for (index, stream) in hub.all.enumerated() { stream.send(event: "own", data: String(repeating: "x\(index)", count: 40 * index + 1)) }
            var befores: [Int] = []
            for index in readers.indices { _ = try readers[index].nextBlock(); befores.append(readers[index].compressedBytes) }
            for stream in hub.all {
                stream.send(event: "changeset", id: "7", data: EventData(head: "{\"version\":7,\"ids\":[", shared: [shared, window], tail: "}"))
                stream.send(event: "after", data: String(sharedText.suffix(500)))
            }
            var results: [([[String]], Int)] = []
            for index in readers.indices {
                let blocks = [try readers[index].nextBlock(), try readers[index].nextBlock()]
                results.append((blocks, readers[index].compressedBytes - befores[index]))
            }
            return results
        }
        #expect(result.count == 3)
        for (blocks, _) in result {
            #expect(blocks.first == ["event: changeset", "id: 7", "data: {\"version\":7,\"ids\":[\(sharedText)],\"cells\":[]}"])
            #expect(blocks.last == ["event: after", "data: \(sharedText.suffix(500))"])
        }
        let compressed = result.prefix(2).map(\.1)
        #expect(compressed.allSatisfy { $0 * 2 < shared.count }, "gzip streams: \(compressed) bytes for \(shared.count)")
        #expect(result[2].1 > shared.count, "the plain stream carries it whole")
    }

    @Test("bytes that stand alone are spliced from standaloneSpliceMinimumBytes, others from spliceMinimumBytes")
    func standaloneThreshold() throws {
        let encoder = try #require(GzipEncoder(EventStreamCompression(spliceMinimumBytes: 64 * 1024, standaloneSpliceMinimumBytes: 16 * 1024)))
        let small = [UInt8](repeating: 0x61, count: 16 * 1024 - 1), medium = [UInt8](repeating: 0x61, count: 16 * 1024)
        let large = [UInt8](repeating: 0x61, count: 64 * 1024)
        #expect(!encoder.splices(SharedEventBytes(small, standsAlone: true)))
        #expect(encoder.splices(SharedEventBytes(medium, standsAlone: true)))
        #expect(!encoder.splices(SharedEventBytes(medium)))
        #expect(encoder.splices(SharedEventBytes(large)))
        // A threshold for all shared bytes below the standalone one lowers it too.
        let eager = try #require(GzipEncoder(EventStreamCompression(spliceMinimumBytes: 1_024, standaloneSpliceMinimumBytes: 16 * 1024)))
        #expect(eager.splices(SharedEventBytes(Array(small.prefix(2_000)), standsAlone: true)))
    }

    @Test("property: events whose identifiers stand alone (spliced from 4 KiB) decode exactly, typed one after another with their cells compressed in the stream", arguments: [1, 2, 3] as [UInt64])
    func standaloneEventsDecode(seed: UInt64) async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        var rng = SeededRandom(seed: seed)
        // Identifiers from a few bytes to 60 KB (spliced from 4 KiB), cells that repeat across
        // events (what a stream compresses against its history), and the head of each.
        let events = (0..<24).map { index -> EventData in
            // A third of them short (a few hundred identifiers at most): compressed in the stream.
            let count = index.isMultiple(of: 3) ? Int.random(in: 0...300, using: &rng) : Int.random(in: 0...6_000, using: &rng)
            let ids = SharedEventBytes(Self.ids(count, &rng), standsAlone: true)
            let cells = SharedEventBytes(Array((0..<Int.random(in: 1...60, using: &rng)).map { _ in
                "{\"id\":\"m\(Int.random(in: 0..<300, using: &rng))\",\"html\":\"<span class=\\\"name\\\">Ben</span>\"}"
            }.joined(separator: ",").utf8))
            return EventData(head: "{\"version\":\(index),\"deleted\":[", shared: [ids, cells], tail: "]}")
        }
        let blocks = try await offPool { () -> [[String]] in
            var reader = try GzipEventReader.open(port: port, acceptEncoding: "gzip")
            defer { reader.reader.socket.close() }
            _ = try reader.nextBlock()
            guard let stream = hub.all.first else { throw ClientError("no stream") }
            var blocks: [[String]] = []
            for (index, data) in events.enumerated() {
                stream.send(event: "changeset", id: "\(index)", data: data)
                blocks.append(try reader.nextBlock())
            }
            return blocks
        }
        let spliced = EventStreamCompression().standaloneSpliceMinimumBytes
        #expect(events.contains { $0.shared[0].count >= spliced }, "some identifiers are spliced")
        #expect(events.contains { $0.shared[0].count < spliced }, "some identifiers are compressed by the stream")
        #expect(blocks == events.enumerated().map { ["event: changeset", "id: \($0.offset)", "data: \($0.element.text)"] })
    }

    @Test("data with line breaks in a part is framed like text, a data: line per line")
    func lineBreaks() throws {
        let shared = SharedEventBytes("b\nc")
        let data = EventData(head: "a", shared: [shared], tail: "d")
        #expect(data.text == "ab\ncd")
        #expect(data.byteCount == 5)
        #expect(EventStream.frame(event: "e", id: nil, data: data.text) == Array("event: e\ndata: ab\ndata: cd\n\n".utf8))
    }
}
