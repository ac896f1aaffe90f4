import Foundation
import HTTPTestSupport
import MicroHTTP
import Synchronization
import Testing
@testable import DiffableWeb

/// A real DiffableWeb server on a loopback port, for tests that speak HTTP and SSE.
struct LiveServer: Sendable {
    let app: WebApp
    let server: HTTPServer
    var port: Int { server.port }

    static func start(_ configure: (inout WebConfiguration) throws -> Void = { _ in }) async throws -> LiveServer {
        let app = try await makeApp(configure)
        // As the executable serves: static files and /healthz answered on the server's thread.
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        // Every test client is one address opening a connection per request: no per-address
        // cap (libmicrohttpd's per-address count lags behind such churn; MicroHTTP's own tests
        // cover the cap).
        configuration.limits.maxConnectionsPerAddress = 0
        configuration.immediateHandler = { app.immediateResponse($0) }
        configuration.routeTemplate = { WebApp.routeTemplate(method: $0, rawPath: $1) }
        configuration.runsInline = { WebApp.runsInline($0) }
        let server = try HTTPServer(configuration: configuration, logger: quietLogger) { await app.respond($0) }
        try server.start()
        let live = LiveServer(app: app, server: server)
        if let scope = LiveServers.current {
            scope.add(live)
        } else {
            Issue.record("a LiveServer was started outside a test with the .stopsLiveServers trait: nothing awaits its stop")
        }
        return live
    }

    func stop() async {
        app.closeAllStreams()
        await server.stop()
    }

    /// A new session's cookie, from a page visit.
    func newSession(_ path: String = "/demos/mountains") async throws -> String {
        let response = try await get(port: port, path)
        guard let header = response.headers.first(where: { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("dw_session=") })?.1 else {
            throw ClientError("no session cookie")
        }
        return String(header.dropFirst("dw_session=".count).prefix { $0 != ";" })
    }

    func postJSON(_ target: String, _ json: String, cookie: String? = nil) async throws -> HTTPResponse {
        var headers = ["Content-Type": "application/json"]
        if let cookie { headers["Cookie"] = "dw_session=\(cookie)" }
        return try await post(port: port, target, body: Array(json.utf8), headers: headers)
    }

    func send(_ method: String, _ target: String, json: String) async throws -> HTTPResponse {
        let body = Array(json.utf8)
        let head = "\(method) \(target) HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return try await exchange(port: port, Array(head.utf8) + body)
    }

    /// Opens an event stream with the session's cookie.
    func events(_ path: String, cookie: String?, lastEventID: String? = nil) async throws -> EventReader {
        var headers: [String: String] = [:]
        if let cookie { headers["Cookie"] = "dw_session=\(cookie)" }
        if let lastEventID { headers["Last-Event-ID"] = lastEventID }
        let port = self.port
        let captured = headers
        let (reader, status) = try await offPool { try EventReader.open(port: port, path: path, headers: captured) }
        guard status == 200 else { throw ClientError("events status \(status)") }
        return reader
    }
}

/// One parsed SSE event.
struct SSEEvent: Sendable {
    var name: String?
    var id: String?
    var data: String
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
}

extension EventReader {
    /// The next event (comments skipped unless `includeComments`).
    mutating func nextEvent(timeout: Double = Patience.hangSeconds, includeComments: Bool = false) throws -> SSEEvent {
        while true {
            let lines = try nextBlock(timeout: timeout)
            var event = SSEEvent(name: nil, id: nil, data: "")
            var dataLines: [String] = []
            var comment: String?
            for line in lines {
                if line.hasPrefix(":") { comment = line }
                else if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                else if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                else if line.hasPrefix("data: ") { dataLines.append(String(line.dropFirst(6))) }
                else if line == "data:" { dataLines.append("") }
            }
            event.data = dataLines.joined(separator: "\n")
            if event.name != nil || !dataLines.isEmpty { return event }
            if includeComments, let comment { return SSEEvent(name: nil, id: nil, data: comment) }
        }
    }
}

/// Blocking reads belong off the cooperative pool.
func next(_ reader: inout EventReader, timeout: Double = Patience.hangSeconds, includeComments: Bool = false) async throws -> SSEEvent {
    let captured = reader
    let (event, updated) = try await offPool { () -> (SSEEvent, EventReader) in
        var copy = captured
        let event = try copy.nextEvent(timeout: timeout, includeComments: includeComments)
        return (event, copy)
    }
    reader = updated
    return event
}

/// The live servers a test started: each is stopped, and its stop awaited, when the test ends,
/// passed or failed (``StopsLiveServers``). A test may stop one earlier; a second stop does
/// nothing.
final class LiveServers: Sendable {
    @TaskLocal static var current: LiveServers?
    private let servers = Mutex<[LiveServer]>([])

    func add(_ server: LiveServer) { servers.withLock { $0.append(server) } }

    func stopAll() async {
        let started = servers.withLock { servers in
            defer { servers.removeAll() }
            return servers
        }
        for server in started.reversed() { await server.stop() }
    }
}

/// A suite's trait: every ``LiveServer`` a test of the suite starts is stopped when the test
/// ends, and the test ends only once they have stopped (a fire-and-forget
/// `defer { Task { await live.stop() } }` left servers running beside the next tests).
struct StopsLiveServers: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> StopsLiveServers? {
        testCase == nil ? nil : self  // each test case, not the suite around them
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let scope = LiveServers()
        do {
            try await LiveServers.$current.withValue(scope) { try await function() }
        } catch {
            await scope.stopAll()
            throw error
        }
        await scope.stopAll()
    }
}

extension Trait where Self == StopsLiveServers {
    /// Stops, and awaits, every ``LiveServer`` a test starts (``StopsLiveServers``).
    static var stopsLiveServers: Self { StopsLiveServers() }
}
