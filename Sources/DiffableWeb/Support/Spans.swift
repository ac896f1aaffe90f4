import Tracing

/// The spans of a list's work (a write, its save, its publication, a stream's opening), as
/// children of the request's span (MicroHTTP's, when a tracer is set up). Outside a traced
/// request no span is made: the work runs as is, at the cost of reading one task-local.
enum Spans {
    /// Runs `body` in a span named `name`, with the list's name as `diffableweb.list`.
    static func traced<T>(_ name: String, list: String, _ body: () async throws -> T) async throws -> T {
        guard ServiceContext.current != nil else { return try await body() }
        return try await withSpan(name, ofKind: .internal) { span in
            span.attributes["diffableweb.list"] = list
            return try await body()
        }
    }

    /// The traced request this task works for, to carry to work that continues elsewhere
    /// (a stream opens on the server's thread): `nil` outside a traced request.
    struct Trace: Sendable {
        let context: ServiceContext
        let tracer: any Tracer

        static var current: Trace? {
            ServiceContext.current.map { Trace(context: $0, tracer: InstrumentationSystem.tracer) }
        }

        /// Runs `body` as part of the traced request.
        func run<T>(_ body: () async throws -> T) async rethrows -> T {
            try await withTracer(tracer) { try await ServiceContext.withValue(context) { try await body() } }
        }
    }

    /// The same, for synchronous work.
    static func traced<T>(_ name: String, list: String, _ body: () throws -> T) rethrows -> T {
        guard ServiceContext.current != nil else { return try body() }
        return try withSpan(name, ofKind: .internal) { span in
            span.attributes["diffableweb.list"] = list
            return try body()
        }
    }
}
