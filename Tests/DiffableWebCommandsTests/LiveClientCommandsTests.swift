import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing
@testable import DiffableWebCommands

/// The client commands against real servers over loopback: in the servers phase of the tests
/// (`scripts/test`), not beside the CPU-bound suites, which took the cooperative threads the
/// test server's handler needs for over 30 s and timed a request out (three fresh-clone CI runs).
@Suite("Live client commands: failures over real sockets, in one line")
struct LiveClientCommandsTests {
    @Test("no server on the port: one line that names the URL, the reason and what to do")
    func unreachable() async throws {
        // A port that was just free: a server took it and stopped.
        let server = try startServer { _ in Response(status: .ok) }
        let port = server.port
        await server.stop()
        let url = try ServerAddress.resolve(base: "http://127.0.0.1:\(port)", environment: [:])
        await #expect(throws: ClientFailure("cannot reach http://127.0.0.1:\(port) (connection refused); is the server running? "
                                            + "Use --base URL or DIFFABLE_WEB_URL")) {
            _ = try await HTTPCall.send("GET", try ServerAddress.url(url, "/api/demos"))
        }
    }

    @Test("an error answer is the server's code and message in one line")
    func errorAnswer() async throws {
        let server = try startServer { _ in
            Response.json(Data(#"{"error":"unknown_demo","message":"No demo named rivers"}"#.utf8), status: .notFound)
        }
        defer { server.stop() }
        let base = try ServerAddress.resolve(base: "http://127.0.0.1:\(server.port)", environment: [:])
        await #expect(throws: ClientFailure("the server answered 404 unknown_demo: No demo named rivers")) {
            _ = try await HTTPCall.send("GET", try ServerAddress.url(base, "/api/sessions/x/demos/rivers/snapshot"))
        }
    }
}
