import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What the process's memory governor asks of the streams (`EventStreamBudget.cutSlowest`), and
/// what a stream counts against the budget: its buffer, its frame, and its deflate state.
@Suite("Event streams cut to free memory")
struct StreamCutTests {
    /// Waits (poll; the hang guard is the only timeout) until the connection is reset or
    /// fully closed (POLLHUP or POLLERR, which poll reports whatever was asked: not for unread
    /// data, nor for a FIN alone); returns the socket's TCP state then.
    private static func waitForServerEnd(_ socket: TestSocket) throws -> UInt8 {
        var pfd = pollfd(fd: socket.fd, events: 0, revents: 0)
        guard poll(&pfd, 1, Int32(Patience.hangSeconds * 1000)) > 0 else { throw ClientError("the server never ended the connection") }
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { throw ClientError("TCP_INFO: errno \(errno)") }
        return info.tcpi_state
    }

    @Test("the clients furthest behind are cut first, their connections reset (not left ESTABLISHED behind a closed window); a client that reads is never cut")
    func cutSlowest() async throws {
        let hub = StreamHub()
        // Budgets far away: only the explicit cut ends streams.
        let server = try streamServer(hub: hub, limits: Limits(maxEventStreamBufferBytes: 64 << 20, maxEventStreamBufferTotalBytes: 1 << 30))
        defer { server.stop() }
        let port = server.port
        let silent = try await openSilentStreams(port: port, count: 3)
        defer { silent.forEach { $0.close() } }
        #expect(await hub.opened.wait(for: 3))
        let slow = hub.all
        let (reading, _) = try await offPool { try EventReader.open(port: port) }
        defer { reading.socket.close() }
        #expect(await hub.opened.wait(for: 4))
        let reader = try #require(hub.all.first { !slow.contains($0) })

        // Backlogs of 3:2:1 MiB past what the loopback socket buffers take (a few MiB each).
        let event = String(repeating: "e", count: 64 * 1024)
        for (stream, megabytes) in [(slow[0], 12), (slow[1], 8), (slow[2], 4)] {
            for _ in 0..<(megabytes * 16) { stream.send(data: event) }
        }
        #expect(slow.map(\.backlogByteCount) == slow.map(\.backlogByteCount).sorted(by: >))
        #expect(slow[2].backlogByteCount > 0, "the loopback buffers took everything: no backlog to cut")
        #expect(reader.backlogByteCount == 0)

        // One byte to free: the furthest behind goes, and only it.
        #expect(server.eventStreamBudget.cutSlowest(freeing: 1).cut == 1)
        #expect(await slow[0].closed() == .bufferBudgetExceeded)
        #expect(slow[1].isOpen && slow[2].isOpen && reader.isOpen)
        // Its client sees a reset, not an ESTABLISHED connection whose FIN waits behind
        // megabytes it will never read.
        #expect(try await offPool { try Self.waitForServerEnd(silent[0]) } == UInt8(TCP_CLOSE))
        #expect(silent[1].isClosedByPeer == false)

        // Enough to free for both: both go; the reader (nothing behind) stays.
        #expect(server.eventStreamBudget.cutSlowest(freeing: 1 << 40).cut == 2)
        #expect(await hub.closed.wait(for: 3))
        #expect(reader.isOpen)
        #expect(await server.countsReach { $0.eventStreams == 1 })
        #expect(server.eventStreamBudget.cutSlowest(freeing: 1 << 40).cut == 0, "a client that takes everything is not cut")
        #expect(server.eventStreamBudget.cuts.load(ordering: .relaxed) == 3)
        reader.close()
        #expect(await server.countsReach { $0.eventStreams == 0 })
        #expect(server.unsentEventStreamBytes == 0)
    }

    @Test("a gzip stream counts its deflate state while active, and gives it back when it ends")
    func deflateStateIsCounted() async throws {
        let hub = StreamHub()
        // Gzip is on by default (`Limits.eventStreamCompression`).
        let server = try streamServer(hub: hub)
        defer { server.stop() }
        let port = server.port
        let plainReader = try await offPool { () -> EventReader in
            var (reader, _) = try EventReader.open(port: port)
            _ = try reader.nextBlock()
            return reader
        }
        defer { plainReader.socket.close() }
        #expect(await hub.opened.wait(for: 1))
        let plain = try #require(hub.all.first)
        let socket = try await offPool { () -> TestSocket in
            let socket = try TestSocket.connect(port: port)
            try socket.send("GET /events HTTP/1.1\r\nHost: test\r\nAccept-Encoding: gzip\r\n\r\n")
            return socket
        }
        defer { socket.close() }
        #expect(await hub.opened.wait(for: 2))
        let gzip = try #require(hub.all.first { $0 !== plain })
        #expect(gzip.isCompressed)
        #expect(gzip.hasDeflateState)
        // The client takes everything as it comes: what is held is the state alone.
        #expect(plain.heldByteCount == 0)
        let fresh = gzip.heldByteCount
        #expect(fresh >= 48 * 1024, "a fresh state counts as one that sent its first event: \(fresh)")
        // After events, the state's touched pages count, up to the whole mapping (~150 KiB).
        gzip.send(data: String(repeating: "mountain ", count: 20_000))
        // It compresses to little: the kernel took it all as it was sent.
        #expect(gzip.backlogByteCount == 0)
        _ = try await offPool { try socket.receive(timeout: Patience.hangSeconds) }
        let active = gzip.heldByteCount
        #expect(active > fresh && active <= 160 * 1024, "active: \(active)")
        // Counted apart from unsent bytes: no stream is behind for its deflate state.
        #expect(server.eventStreamBudget.deflateStateBytes == active)
        #expect(server.eventStreamBudget.heldBytes == active)
        #expect(server.unsentEventStreamBytes == 0)
        gzip.close()
        #expect(await hub.closed.wait(for: 1))
        #expect(server.eventStreamBudget.heldBytes == 0)
    }
}
