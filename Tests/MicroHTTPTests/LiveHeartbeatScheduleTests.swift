import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import Testing

/// Heartbeats spread over the interval: one slot a tick, each stream once per round of slots,
/// the first one a whole interval after it joined.
@Suite("Event streams: the heartbeat schedule")
struct LiveHeartbeatScheduleTests {
    /// A stream server with `count` open streams (its hub lists them in the order they opened).
    private func openStreams(_ count: Int) async throws -> (HTTPServer, StreamHub, [EventReader]) {
        let hub = StreamHub()
        let server = try streamServer(hub: hub)
        var readers: [EventReader] = []
        for opened in 1...count {
            let (reader, status) = try await offPool { [port = server.port] in try EventReader.open(port: port) }
            readers.append(reader)
            #expect(status == 200)
            #expect(await hub.opened.wait(for: opened))
        }
        return (server, hub, readers)
    }

    @Test("each tick sends to one slot; a stream gets its first heartbeat one round after it joined, then one a round")
    func spreadOverSlots() async throws {
        let (server, hub, readers) = try await openStreams(3)
        defer { server.stop() }
        defer { for reader in readers { reader.socket.close() } }
        let streams = hub.all
        let schedule = HeartbeatSchedule(interval: .seconds(3), slots: 3)
        #expect(schedule.tickInterval == .seconds(1))
        // One stream joins before each of the first three ticks.
        var sent: [[UInt64]] = []
        for stream in streams {
            schedule.add(stream)
            sent.append(schedule.tick().map(\.id))
        }
        for _ in 0..<6 { sent.append(schedule.tick().map(\.id)) }
        let (a, b, c) = (streams[0].id, streams[1].id, streams[2].id)
        #expect(sent == [[], [], [a], [b], [c], [a], [b], [c], [a]])
        #expect(schedule.count == 3)
    }

    @Test("the heartbeats reach the client; a stream that closes leaves the schedule")
    func closedStreamsLeave() async throws {
        let (server, hub, readers) = try await openStreams(2)
        defer { server.stop() }
        let streams = hub.all
        let schedule = HeartbeatSchedule(interval: .seconds(2), slots: 1)
        for stream in streams { schedule.add(stream) }
        #expect(schedule.tick().count == 2)
        let block = try await offPool { [reader = readers[1]] () -> [String] in
            var reader = reader
            while true {
                let block = try reader.nextBlock()
                if block != [": connected"] { return block }
            }
        }
        #expect(block == [": heartbeat"])
        readers[0].socket.close()
        // `closed()` returns after every close handler has run, the schedule's among them.
        #expect(await streams[0].closed() == .clientDisconnected)
        #expect(schedule.count == 1, "the hung-up stream left its slot")
        #expect(schedule.tick().map(\.id) == hub.all.map(\.id))
        readers[1].socket.close()
        #expect(await streams[1].closed() == .clientDisconnected)
        #expect(schedule.count == 0)
    }

    @Test("a stream that has already ended is not kept")
    func endedStreamIsNotKept() async throws {
        let (server, hub, readers) = try await openStreams(1)
        defer { server.stop() }
        let stream = try #require(hub.all.first)
        readers[0].socket.close()
        #expect(await stream.closed() == .clientDisconnected)
        let schedule = HeartbeatSchedule(interval: .seconds(30))
        #expect(schedule.slotCount == 30)
        schedule.add(stream)
        #expect(schedule.count == 0)
    }
}
