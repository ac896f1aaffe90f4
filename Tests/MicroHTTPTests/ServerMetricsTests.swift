import CoreMetrics
import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import MetricsTestKit
import Testing

/// The server's metrics through swift-metrics, recorded into a test backend bound to the task
/// that makes the server (every handle the server makes later, on its own threads, comes from
/// that backend too).
@Suite("Server metrics")
struct ServerMetricsTests {
    /// A server whose routes are `/items/{id}` and `/events`, in a test backend.
    private static func server(_ metrics: TestMetrics, hub: StreamHub) throws -> HTTPServer {
        try withMetricsFactory(metrics) {
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.routeTemplate = { _, path in path.hasPrefix("/items/") ? "/items/{id}" : path == "/events" ? "/events" : "unmatched" }
            let server = try HTTPServer(configuration: configuration, logger: quietLogger) { request in
                if request.path == "/events" { return .eventStream { hub.add($0) } }
                if request.path.hasPrefix("/items/") { return .text("item") }
                if request.path == "/full" {
                    return HTTPError(.serviceUnavailable, code: "memory_full", message: "full").response
                }
                return HTTPError(.notFound).response
            }
            try server.start()
            return server
        }
    }

    private static func count(_ metrics: TestMetrics, _ label: String, _ dimensions: [(String, String)]) -> Int {
        metrics.timers(label: label, dimensions: dimensions).reduce(0) { $0 + $1.values.count }
    }

    @Test("requests are timed under their route template, method and status class; none stays active")
    func requestDurations() async throws {
        let metrics = TestMetrics()
        let server = try Self.server(metrics, hub: StreamHub())
        defer { server.stop() }
        for id in ["a", "b", "c"] { #expect(try await get(port: server.port, "/items/\(id)").status == 200) }
        #expect(try await get(port: server.port, "/nowhere").status == 404)

        let name = HTTPServerMetrics.requestDuration.name
        #expect(Self.count(metrics, name, [("http_request_method", "GET"), ("http_route", "/items/{id}"), ("http_response_status_class", "2xx")]) == 3)
        #expect(Self.count(metrics, name, [("http_request_method", "GET"), ("http_route", "unmatched"), ("http_response_status_class", "4xx")]) == 1)
        // One series per template: the ids never became labels.
        #expect(metrics.timers(label: name).count == 2)
        let active = try metrics.expectMeter(HTTPServerMetrics.activeRequests.name, [("http_request_method", "GET")])
        #expect(active.lastValue == 0)
    }

    @Test("a refusal counts once under its status and the JSON error's code")
    func refusals() async throws {
        let metrics = TestMetrics()
        let server = try Self.server(metrics, hub: StreamHub())
        defer { server.stop() }
        let query = (0...Limits().maxQueryArguments).map { "a\($0)=1" }.joined(separator: "&")
        #expect(try await get(port: server.port, "/items/x?\(query)").status == 414)
        #expect(try await get(port: server.port, "/full").status == 503)
        #expect(try await get(port: server.port, "/nowhere").status == 404)

        let name = HTTPServerMetrics.refusals.name
        #expect(metrics.counterTotal(label: name, dimensions: [("http_response_status_code", "414"), ("error_type", "too_many_query_arguments")]) == 1)
        #expect(metrics.counterTotal(label: name, dimensions: [("http_response_status_code", "503"), ("error_type", "memory_full")]) == 1)
        // A 404 is an answer, not a refusal.
        #expect(metrics.counterTotal(label: name) == 2)
    }

    @Test("every response carries X-Request-ID: the client's when usable, else a new one")
    func requestIDs() async throws {
        let server = try Self.server(TestMetrics(), hub: StreamHub())
        defer { server.stop() }
        let given = try await get(port: server.port, "/items/a", headers: ["X-Request-ID": "nginx-0f3a"])
        #expect(given.header("X-Request-ID") == "nginx-0f3a")
        let made = try await get(port: server.port, "/items/a", headers: ["X-Request-ID": "has \"quotes\""])
        let id = try #require(made.header("X-Request-ID"))
        #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
        let refused = try await get(port: server.port, "/nowhere")
        #expect(refused.header("X-Request-ID")?.count == 16)
        #expect(RequestID.accepted(String(repeating: "a", count: 129)) == nil)
        #expect(RequestID.accepted("") == nil)
        #expect(RequestID.make() != RequestID.make())
    }

    @Test("events and their bytes are counted by event name; open streams by encoding")
    func events() async throws {
        let metrics = TestMetrics()
        let hub = StreamHub()
        let server = try Self.server(metrics, hub: hub)
        defer { server.stop() }
        let (reader, _) = try await offPool { try EventReader.open(port: server.port) }
        defer { reader.socket.close() }
        #expect(await hub.opened.wait(for: 1))
        let streams = try metrics.expectMeter(HTTPServerMetrics.streamsOpen.name, [("encoding", "plain")])
        #expect(streams.lastValue == 1)
        let stream = try #require(hub.all.first)
        var bytes = 0
        for index in 0..<3 {
            #expect(stream.send(event: "changeset", id: "\(index)", data: "{\"n\":\(index)}"))
            bytes += EventStream.frame(event: "changeset", id: "\(index)", data: "{\"n\":\(index)}").count
        }
        #expect(stream.send(event: "window", data: "{}"))
        let sent = HTTPServerMetrics.eventsSent.name, wire = HTTPServerMetrics.eventBytes.name
        #expect(metrics.counterTotal(label: sent, dimensions: [("event", "changeset")]) == 3)
        #expect(metrics.counterTotal(label: wire, dimensions: [("event", "changeset")]) == Int64(bytes))
        #expect(metrics.counterTotal(label: sent, dimensions: [("event", "window")]) == 1)

        stream.close()
        #expect(await hub.closed.wait(for: 1))
        #expect(await eventually("the open streams' gauge is back to 0") { streams.lastValue == 0 })
    }
}
