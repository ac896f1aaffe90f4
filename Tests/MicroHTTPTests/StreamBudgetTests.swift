import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

/// Many clients that stop reading cannot together take more memory than the server-wide budget:
/// the slowest are cut first, and clients that keep up are untouched.
@Suite("Event stream budget")
struct StreamBudgetTests {
    @Test("past the total budget the largest backlogs are cut first; a reading client keeps its stream")
    func slowestCutFirst() async throws {
        let budget = 1 << 20
        let hub = StreamHub()
        // The per-stream cap (64 MiB) is far away: only the total can cut.
        let server = try streamServer(hub: hub, limits: Limits(maxEventStreamBufferBytes: 64 << 20,
                                                               maxEventStreamBufferTotalBytes: budget))
        defer { server.stop() }
        let port = server.port
        // Three clients that never read after the preamble, then one that keeps reading.
        let silent = try await openSilentStreams(port: port, count: 3)
        defer { silent.forEach { $0.close() } }
        #expect(await hub.opened.wait(for: 3))
        let slow = hub.all
        // Reads until the server ends its stream (the test closes it when done).
        let reading = Task.detached {
            try await offPool { () -> Int in
                var (reader, _) = try EventReader.open(port: port)
                defer { reader.socket.close() }
                var bytes = 0
                while !reader.reader.closed {
                    try reader.reader.fill(timeout: Patience.hangSeconds)
                    bytes += reader.reader.buffer.count
                    reader.reader.buffer.removeAll(keepingCapacity: true)
                }
                return bytes
            }
        }
        #expect(await hub.opened.wait(for: 4))
        let reader = try #require(hub.all.first { !slow.contains($0) })

        // Backlogs grow at 3:2:1 on the silent streams (loopback socket buffers take a few MiB
        // each first); the reader gets events too.
        let event = String(repeating: "e", count: 16 * 1024)
        var peak = 0
        for round in 0..<4_000 where slow[0].isOpen {
            for (stream, times) in [(slow[0], 3), (slow[1], 2), (slow[2], 1), (reader, 1)] {
                for _ in 0..<times {
                    stream.send(data: event)
                    peak = max(peak, server.unsentEventStreamBytes)
                }
            }
            if round % 16 == 0 { await Task.yield() }
        }
        #expect(!slow[0].isOpen, "the budget was reached")
        #expect(await slow[0].closed() == .bufferBudgetExceeded)
        #expect(slow[2].isOpen, "the smallest backlog is cut last")
        #expect(reader.isOpen, "a client that reads is not cut")
        // One sender: the total exceeds the budget by at most the event that crossed it.
        #expect(peak <= budget + 16 * 1024 + 64, "peak \(peak)")
        reader.close()
        #expect(try await reading.value > 0)
    }

    @Test("the budget is returned when streams drain or close: nothing is counted twice")
    func accounting() async throws {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let readers = try await offPool { () -> [EventReader] in
            try (0..<3).map { _ in
                var (reader, _) = try EventReader.open(port: port)
                _ = try reader.nextBlock()
                return reader
            }
        }
        #expect(await hub.opened.wait(for: 3))
        // The clients have the preambles, which the streams took from their buffers before sending.
        #expect(server.unsentEventStreamBytes == 0)
        hub.broadcast(data: String(repeating: "x", count: 100_000))
        // Read everything on two, hang up the third while its bytes may be unsent.
        let drained = try await offPool { () -> Bool in
            var readers = readers
            let ok = try (0..<2).allSatisfy { i in try readers[i].nextBlock().count == 1 }
            readers[2].socket.reset()
            return ok
        }
        #expect(drained)
        // Two streams sent everything (their clients have it all); the third drops what it held
        // when its hang-up ends it.
        #expect(await hub.closed.wait(for: 1))
        #expect(server.unsentEventStreamBytes == 0)
        hub.all.forEach { $0.close() }
        readers.forEach { $0.socket.close() }
        #expect(await server.countsReach { $0.eventStreams == 0 })
        #expect(server.unsentEventStreamBytes == 0)
    }
}
