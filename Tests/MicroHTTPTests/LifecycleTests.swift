import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

@Suite("Server lifecycle")
struct LifecycleTests {
    @Test("port 0 picks a free port; a port in use makes start() throw")
    func ports() async throws {
        let first = try startServer(handler: echoHandler)
        defer { first.stop() }
        #expect(first.port > 0)
        #expect(first.isRunning)
        let clash = try HTTPServer(configuration: .init(host: "127.0.0.1", port: first.port), logger: quietLogger, handler: echoHandler)
        #expect(throws: HTTPServer.ServerError.self) { try clash.start() }
        #expect(try await get(port: first.port, "/hello").text == "hello")
    }

    @Test("an invalid host is refused")
    func invalidHost() throws {
        let server = try HTTPServer(configuration: .init(host: "not an address", port: 0), logger: quietLogger, handler: echoHandler)
        #expect(throws: HTTPServer.ServerError.self) { try server.start() }
    }

    @Test("stop ends every open stream, answers in-flight requests, and is idempotent")
    func stopWithOpenStreams() async throws {
        let hub = StreamHub()
        // The slow handler: it waits at the gate until the test is done with the stop.
        let slow = Gate()
        let hangGuard = slow.openingPastHang()
        defer { hangGuard.cancel() }
        let server = try startServer { request in
            switch request.path {
            case "/events": return .eventStream { hub.add($0) }
            default:
                await slow.wait()
                return .text("late")
            }
        }
        let port = server.port
        let readers = try await offPool { () -> [EventReader] in
            try (0..<3).map { _ in
                var (reader, _) = try EventReader.open(port: port)
                _ = try reader.nextBlock()
                return reader
            }
        }
        defer { readers.forEach { $0.socket.close() } }
        async let inFlight = exchange(port: port, "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(await hub.opened.wait(for: 3))
        #expect(await slow.arrivals.wait(for: 1))

        await server.stop()
        // Not waiting for the slow handler (still at its gate) or the streams' clients (which
        // read nothing).
        #expect(slow.isWaiting, "the stop returned while the handler was still running")
        #expect(!server.isRunning)
        #expect(server.openEventStreamCount == 0)
        #expect(hub.closeReasons == [.serverStopped, .serverStopped, .serverStopped])
        // The stop gives the 503 a moment to go out before it closes the sockets.
        let answer = try await inFlight
        #expect(answer.status == 503)
        let ended = try await offPool { () -> Bool in
            var readers = readers
            for i in readers.indices { _ = try? readers[i].readToEnd(timeout: Patience.hangSeconds) }
            return readers.allSatisfy { $0.reader.closed }
        }
        #expect(ended)
        await server.stop()
        await server.stop()
    }

    @Test("a stopped server cannot be restarted and refuses connections")
    func stoppedServer() async throws {
        let server = try startServer(handler: echoHandler)
        let port = server.port
        await server.stop()
        #expect(throws: HTTPServer.ServerError.self) { try server.start() }
        await #expect(throws: ClientError.self) { try await get(port: port, "/hello") }
    }
}

@Suite("Graceful stop")
struct GracefulStopTests {
    @Test("streams end with the chunked terminator, in-flight requests finish, new ones get 503")
    func graceful() async throws {
        let hub = StreamHub()
        // The in-flight request: its handler finishes once the test opens the gate, during the stop.
        let slow = Gate()
        let hangGuard = slow.openingPastHang()
        defer { hangGuard.cancel() }
        let server = try startServer { request in
            switch request.path {
            case "/events": return .eventStream { hub.add($0) }
            case "/slow":
                await slow.wait()
                return .text("finished")
            default: return .text("hello")
            }
        }
        let port = server.port
        let readers = try await offPool { () -> [EventReader] in
            try (0..<3).map { _ in
                var (reader, _) = try EventReader.open(port: port)
                _ = try reader.nextBlock()
                return reader
            }
        }
        defer { readers.forEach { $0.socket.close() } }
        async let inFlight = exchange(port: port, "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(await hub.opened.wait(for: 3))
        #expect(await slow.arrivals.wait(for: 1))
        hub.broadcast(id: "9", data: "last words")

        // The grace period is the hang guard: the request finishes when the gate opens.
        async let report = server.shutdown(gracePeriod: Patience.hang)
        #expect(await server.countsReach { $0.eventStreams == 0 })
        // Still running: the slow handler holds the stop until the gate opens.
        let late = try? await get(port: port, "/hello")
        #expect(late?.status == 503, "a new request during the stop is refused with a 503")
        slow.open()

        let answer = try await inFlight
        #expect(answer.status == 200 && answer.text == "finished")
        #expect(answer.header("Connection")?.lowercased() == "close")
        let ended = try await offPool { () -> [Bool] in
            var readers = readers
            return try readers.indices.map { i in
                let block = try readers[i].nextBlock()
                return try block == ["id: 9", "data: last words"] && readers[i].readToEnd(timeout: Patience.hangSeconds)
            }
        }
        #expect(ended == [true, true, true], "each stream got its queued event, then a clean end")
        let done = await report
        #expect(done.streamsClosed == 3 && done.streamsEndedCleanly == 3)
        #expect(done.requestsFinished == 1 && done.requestsCut == 0)
        #expect(hub.closeReasons == [.serverStopped, .serverStopped, .serverStopped])
        #expect(!server.isRunning)
        await server.stop()
    }

    @Test("a request slower than the grace period is cut with a 503, and the stop does not wait for it")
    func gracePeriodEnds() async throws {
        // The handler is slower than any grace period: it waits at the gate until the test is done.
        let slow = Gate()
        let hangGuard = slow.openingPastHang()
        defer { hangGuard.cancel() }
        let server = try startServer { _ in
            await slow.wait()
            return .text("too late")
        }
        let port = server.port
        async let inFlight = exchange(port: port, "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        // In flight once its handler runs (a fixed sleep was too short on a loaded machine).
        #expect(await slow.arrivals.wait(for: 1))
        // The grace period is what is under test: it must pass, and the stop must end after it.
        let report = await server.shutdown(gracePeriod: .milliseconds(500))
        #expect(slow.isWaiting, "the stop returned while the handler was still running")
        #expect(report.requestsCut == 1 && report.requestsFinished == 0)
        // Cut after the grace period: answered 503, which goes out before the sockets close.
        let answer = try await inFlight
        #expect(answer.status == 503)
    }
}
