import Dispatch
import Foundation
import Logging
import MicroHTTP
import Synchronization

extension WebApp {
    /// Serves `configuration`'s demos on libmicrohttpd until SIGINT or SIGTERM, then stops
    /// gracefully: streams end cleanly, in-flight requests get `shutdownGrace` to finish.
    ///
    /// Prints `Listening on http://host:port/` to standard output once the port is open (with
    /// `port: 0` that names the port picked; scripts and tests read it).
    /// ```swift
    /// try await WebApp.serve(WebConfiguration(publicDirectory: "Public", templatesDirectory: "templates",
    ///                                         demos: [GroceriesDemo.descriptor]))
    /// ```
    public static func serve(_ configuration: WebConfiguration, host: String = "127.0.0.1", port: Int = 8080,
                             limits: Limits = Limits(), shutdownGrace: Duration = .seconds(5),
                             logger: Logger = Logger(label: "diffable-web")) async throws {
        let app = try await WebApp(configuration: configuration, logger: logger)
        var serverConfiguration = HTTPServer.Configuration(host: host, port: port, limits: limits)
        serverConfiguration.immediateHandler = { app.immediateResponse($0) }
        let server = try HTTPServer(configuration: serverConfiguration, logger: logger) { request in
            await app.handle(request)
        }
        try server.start()
        logger.info("DiffableWeb on http://\(host):\(server.port)/ (public: \(configuration.publicDirectory), templates: \(configuration.templatesDirectory))")
        FileHandle.standardOutput.write(Data("Listening on http://\(host):\(server.port)/\n".utf8))

        let maintenance = Task { await app.runMaintenance() }
        await Signals.waitForTermination()
        logger.info("stopping")
        maintenance.cancel()
        // Streams end cleanly (chunked terminator), in-flight requests get the grace period,
        // and the server logs what it closed, finished and cut.
        await server.shutdown(gracePeriod: shutdownGrace)
        await app.close()
    }
}

/// Waits for SIGINT or SIGTERM.
enum Signals {
    static func waitForTermination() async {
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once(continuation)
            for source in sources {
                source.setEventHandler { once.resume() }
                source.resume()
            }
        }
        for source in sources { source.cancel() }
    }

    /// Resumes a continuation at most once, whichever signal comes first.
    final class Once: Sendable {
        private let continuation: Mutex<CheckedContinuation<Void, Never>?>
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }
        func resume() { continuation.withLock { $0.take() }?.resume() }
    }
}
