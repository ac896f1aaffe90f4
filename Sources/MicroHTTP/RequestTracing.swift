import Tracing

/// A request's span, when the process set up a tracer (`InstrumentationSystem.bootstrap`, or
/// `withTracer` around the server's making): named `METHOD route` (OpenTelemetry's HTTP
/// server span), of kind server, its parent taken from the request's headers by the tracer's
/// own propagation (W3C `traceparent` and `tracestate` for an OpenTelemetry tracer). Spans the
/// handler starts (a list's write, its save, its publication) are its children.
///
/// With no tracer (the default) a request costs one `nil` check: no span, no context.
final class RequestTracing: Sendable {
    /// The tracer when the server was made, `nil` for none (the no-op tracer).
    let tracer: (any Tracer)?

    init() {
        let tracer = InstrumentationSystem.tracer
        self.tracer = tracer is NoOpTracer ? nil : tracer
    }

    /// Runs `handler` in the request's span (or just runs it, with no tracer).
    func traced(_ request: Request, route: @autoclosure () -> String, requestID: String,
                _ handler: @Sendable () async throws -> Response) async throws -> Response {
        guard let tracer else { return try await handler() }
        let route = route()
        return try await withTracer(tracer) {
            var context = ServiceContext.topLevel
            tracer.extract(request.headers, into: &context, using: RequestHeadersExtractor())
            return try await tracer.withSpan("\(request.method.rawValue) \(route)", context: context, ofKind: .server) { span in
                span.attributes["http.request.method"] = request.method.rawValue
                span.attributes["http.route"] = route
                span.attributes["url.path"] = request.rawPath
                span.attributes["diffableweb.request_id"] = requestID
                let response = try await handler()
                span.attributes["http.response.status_code"] = response.status.code
                if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
                return response
            }
        }
    }
}

/// A request's headers as a tracer reads its context from them (case-insensitive names).
struct RequestHeadersExtractor: Extractor {
    func extract(key: String, from carrier: HTTPHeaders) -> String? { carrier[key] }
}
