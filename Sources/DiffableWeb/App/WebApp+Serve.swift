import Dispatch
import Foundation
import Logging
import MicroHTTP
import ServiceLifecycle

extension WebApp {
    /// Serves `configuration`'s demos on libmicrohttpd until SIGINT or SIGTERM, then stops
    /// gracefully: streams end cleanly, in-flight requests get `shutdownGrace` to finish.
    ///
    /// Prints `Listening on http://host:port/` to standard output once the port is open (with
    /// `port: 0` that names the port picked; scripts and tests read it).
    /// ```swift
    /// var configuration = try WebConfiguration(lists: [Groceries.self])
    /// configuration.sessionIdleTimeout = .seconds(10 * 60)
    /// try await WebApp.serve(configuration, port: 9000)
    /// ```
    public static func serve(_ configuration: WebConfiguration, host: String = "127.0.0.1", port: Int = 8080,
                             limits: Limits = Limits(), shutdownGrace: Duration = .seconds(5),
                             logger: Logger = Logger(label: "diffable-web")) async throws {
        AllocatorPolicy.apply()
        let app = try await WebApp(configuration: configuration, logger: logger)
        var serverConfiguration = HTTPServer.Configuration(host: host, port: port, limits: limits)
        serverConfiguration.immediateHandler = { app.immediateResponse($0) }
        serverConfiguration.routeTemplate = { WebApp.routeTemplate(method: $0, rawPath: $1) }
        serverConfiguration.runsInline = { WebApp.runsInline($0) }
        // `/healthz` and static files are answered on libmicrohttpd's threads: ahead of the
        // handlers' threads when the process may say so (as root).
        // −3, not more: at −10 they preempted the handlers' threads so often that an operation
        // cost 10% more server CPU under load (api_load.py), for no better p99 than −3 gives.
        serverConfiguration.libraryThreadNiceness = -3
        let server = try HTTPServer(configuration: serverConfiguration, logger: logger) { request in
            await app.respond(request)
        }
        try server.start()
        logger.info("DiffableWeb on http://\(host):\(server.port)/ (public: \(configuration.publicDirectory), templates: \(configuration.templatesDirectory))")
        FileHandle.standardOutput.write(Data("Listening on http://\(host):\(server.port)/\n".utf8))

        // One lifecycle: the server, the maintenance rounds, the memory governor, the app's
        // close and the store's own service (PostgreSQL), stopped in that order on SIGTERM or
        // SIGINT (`services(server:shutdownGrace:)`).
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: app.services(server: server, shutdownGrace: shutdownGrace),
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        // What the group cannot do under CPU load: 503s at once, and an exit bounded by the
        // grace period (see `PromptStop`).
        let prompt = PromptStop.install(server: server, shutdownGrace: shutdownGrace, logger: logger)
        // The group (an actor) and the services' waiting run on a thread of their own, not on
        // the cooperative pool: when every pool thread runs a long handler, the stop's steps
        // (the server's report, then the store closed) still run in order and in time.
        let executor = DedicatedThreadExecutor(name: "diffable-web.lifecycle")
        try await withTaskExecutorPreference(executor) {
            try await group.run()
            prompt.finished()
            // Handlers abandoned at the deadline may still hold the pool, and with it the
            // return from `main`: the work is done, so the process ends here.
            if prompt.signalled { exit(0) }
        }
    }
}
