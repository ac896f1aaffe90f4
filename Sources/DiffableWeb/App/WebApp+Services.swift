import Logging
import MicroHTTP
import ServiceLifecycle

extension WebApp {
    /// DiffableWeb's long-lived work as ServiceLifecycle services, for an app that runs its own
    /// `ServiceGroup` (``serve(_:host:port:limits:shutdownGrace:logger:)`` runs them in one of its own).
    ///
    /// In the order a group must list them, which is the reverse of the order they stop in:
    /// 1. the session store, when it is a `Service` itself (PostgreSQL's pool and its listening
    ///    connection): it stops last, after everything that uses it;
    /// 2. the app's close (``close()``) on graceful shutdown;
    /// 3. the memory governor (started when the group runs, stopped on graceful shutdown);
    /// 4. the maintenance rounds (``runMaintenance()``: heartbeats, idle sessions and layouts);
    /// 5. the HTTP server: on graceful shutdown it stops first, gracefully (new requests get
    ///    503, streams end cleanly, in-flight requests get `shutdownGrace`).
    ///
    /// Start `server` before the group runs (its port is open and known then). Put what the app
    /// itself depends on (a database client of its own) before these, and what must stop before
    /// the server after them.
    /// ```swift
    /// let app = try await WebApp(configuration: configuration, logger: logger)
    /// let server = try HTTPServer(configuration: .init(port: 8080), logger: logger) { await app.respond($0) }
    /// try server.start()
    /// let group = ServiceGroup(configuration: ServiceGroupConfiguration(
    ///     services: app.services(server: server), gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    /// try await group.run()
    /// ```
    /// Under CPU load a group hears a signal only once a thread of the cooperative pool is
    /// free: ``PromptStop`` stops the server at once and bounds the exit (`serve` installs it).
    public func services(server: HTTPServer, shutdownGrace: Duration = .seconds(5)) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let store = store as? any Service {
            services.append(.init(service: store, serviceName: "diffable-web.store"))
        }
        services.append(.init(service: AppClosing(app: self), serviceName: "diffable-web.close"))
        services.append(.init(service: MemoryGovernorService(app: self, server: server), serviceName: "diffable-web.memory"))
        services.append(.init(service: MaintenanceService(app: self), serviceName: "diffable-web.maintenance"))
        services.append(.init(service: HTTPServerService(server: server, shutdownGrace: shutdownGrace), serviceName: "diffable-web.http"))
        return services
    }
}

/// The HTTP server: runs until graceful shutdown, then stops gracefully (see
/// `HTTPServer.shutdown(gracePeriod:)`); on cancellation, at once.
struct HTTPServerService: Service {
    let server: HTTPServer
    let shutdownGrace: Duration

    func run() async {
        try? await gracefulShutdown()
        await server.shutdown(gracePeriod: Task.isCancelled ? .zero : shutdownGrace)
    }
}

/// The maintenance rounds (``WebApp/runMaintenance()``) until graceful shutdown.
struct MaintenanceService: Service {
    let app: WebApp

    func run() async {
        // On the cooperative pool, as any handler: heartbeats to thousands of streams are work
        // of their own, not the lifecycle's (whose executor may be a thread of its own).
        await withTaskExecutorPreference(globalConcurrentExecutor) {
            await cancelWhenGracefulShutdown { await app.runMaintenance() }
        }
    }
}

/// The memory governor (a thread of its own, `ProcessMemory.MemoryGovernor`), given the
/// server's streams and bodies, until graceful shutdown.
struct MemoryGovernorService: Service {
    let app: WebApp
    let server: HTTPServer

    func run() async {
        let server = self.server
        app.startMemoryGovernor(streams: server.eventStreamBudget, bodies: { server.requestBodyBytes })
        try? await gracefulShutdown()
        app.memory.stop()
    }
}

/// Closes the app (its store's connections) on graceful shutdown: after the server and the
/// rounds stopped, before the store's own service.
struct AppClosing: Service {
    let app: WebApp

    func run() async {
        try? await gracefulShutdown()
        await app.close()
    }
}
