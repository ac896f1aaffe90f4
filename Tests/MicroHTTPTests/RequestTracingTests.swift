import HTTPTestSupport
import InMemoryTracing
@testable import MicroHTTP
import Synchronization
import Testing
import Tracing

/// A request's span: made when a tracer is set up, parented by the context the tracer reads
/// from the request's headers, and the parent of the spans its handler starts.
@Suite("Request spans")
struct RequestTracingTests {
    @Test("a request is a server span named by its route, a child of the trace its headers carry; the handler's spans are its children")
    func requestSpan() async throws {
        let tracer = InMemoryTracer()
        let server = try withTracer(tracer) {
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.routeTemplate = { _, path in path.hasPrefix("/items/") ? "/items/{id}" : "unmatched" }
            let server = try HTTPServer(configuration: configuration, logger: quietLogger) { request in
                withSpan("inner work") { _ in }
                return request.path.hasPrefix("/items/") ? .text("item") : HTTPError(.serviceUnavailable).response
            }
            try server.start()
            return server
        }
        defer { server.stop() }
        // The in-memory tracer's own propagation headers (an OpenTelemetry tracer reads W3C
        // traceparent the same way: the server hands the tracer every header).
        let response = try await get(port: server.port, "/items/42", headers: [
            InMemoryTracer.traceIDKey: "trace-from-nginx", InMemoryTracer.spanIDKey: "span-at-nginx", "X-Request-ID": "rid-7",
        ])
        #expect(response.status == 200)
        #expect(try await get(port: server.port, "/down").status == 503)

        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "GET /items/{id}" })
        #expect(request.kind == .server)
        #expect(request.traceID == "trace-from-nginx")
        #expect(request.parentSpanID == "span-at-nginx")
        #expect(request.attributes["http.route"]?.toSpanAttribute() == .string("/items/{id}"))
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(request.attributes["diffableweb.request_id"]?.toSpanAttribute() == .string("rid-7"))
        let inner = try #require(spans.first { $0.operationName == "inner work" && $0.traceID == "trace-from-nginx" })
        #expect(inner.parentSpanID == request.spanID)

        let failed = try #require(spans.first { $0.operationName == "GET unmatched" })
        #expect(failed.status?.code == .error)
        #expect(failed.parentSpanID == nil, "no trace in its headers: a root span")
    }

    @Test("with no tracer set up, a request makes no span and binds no context")
    func noTracer() async throws {
        let seen = ContextSeen()
        let server = try startServer { _ in
            seen.record(ServiceContext.current != nil)
            return .text("ok")
        }
        defer { server.stop() }
        #expect(try await get(port: server.port, "/").status == 200)
        #expect(seen.values == [false])
    }
}

/// What handlers saw, across threads.
private final class ContextSeen: Sendable {
    private let seen = Mutex<[Bool]>([])
    func record(_ value: Bool) { seen.withLock { $0.append(value) } }
    var values: [Bool] { seen.withLock { $0 } }
}
