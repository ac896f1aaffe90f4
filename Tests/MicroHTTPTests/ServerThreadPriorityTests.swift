import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The immediate handler runs on libmicrohttpd's polling thread: it reads that thread's niceness.
@Suite("libmicrohttpd's threads ahead of the handlers' (CAP_SYS_NICE)")
struct ServerThreadPriorityTests {
    final class Seen: Sendable {
        let values = Mutex<[Int32]>([])
        func append(_ value: Int32) { values.withLock { $0.append(value) } }
        var all: [Int32] { values.withLock { $0 } }
    }

    private static func server(niceness: Int32?, seen: Seen) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(port: 0, threads: 2)
        configuration.libraryThreadNiceness = niceness
        configuration.immediateHandler = { request in
            guard request.path == "/niceness" else { return nil }
            errno = 0
            let niceness = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            seen.append(niceness)
            return Response(status: .ok)
        }
        let server = try HTTPServer(configuration: configuration) { _ in Response(status: .notFound) }
        try server.start()
        return server
    }

    @Test("a polling thread takes the niceness asked for with its first connection", .enabled(if: geteuid() == 0, "needs CAP_SYS_NICE (root)"))
    func raised() async throws {
        let seen = Seen()
        let server = try Self.server(niceness: -7, seen: seen)
        defer { server.stop() }
        for _ in 0..<4 { #expect(try await get(port: server.port, "/niceness").status == 200) }
        #expect(seen.all == [-7, -7, -7, -7])
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0, "the test's own thread is left as it was")
    }

    @Test("without a niceness the threads are left as they are")
    func leftAlone() async throws {
        let seen = Seen()
        let server = try Self.server(niceness: nil, seen: seen)
        defer { server.stop() }
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        for _ in 0..<4 { #expect(try await get(port: server.port, "/niceness").status == 200) }
        #expect(seen.all == [base, base, base, base])
    }
}
