import CompositionalLayout
import DiffableDataSources
import Foundation
import Logging
import MicroHTTP
import ProcessMemory
import Synchronization

/// The DiffableWeb application: demos, sessions and routes, as one `MicroHTTP` handler.
///
/// ```swift
/// let app = try await WebApp(configuration: WebConfiguration(lists: [Groceries.self]))
/// let server = try HTTPServer(configuration: .init(port: 8080)) { await app.handle($0) }
/// try server.start()
/// ```
public final class WebApp: Sendable {
    public let configuration: WebConfiguration
    let renderer: Renderer
    let staticFiles: StaticFiles
    let sessions: SessionRegistry
    /// The lists' layout caches that hold layouts now (what the maintenance rounds visit).
    let heldLayouts = HeldLayouts()
    /// Where sessions outlive the process (`nil`: memory only).
    let store: (any SessionStore)?
    let demos: [DemoDescriptor]
    /// Static-file servers for demos whose assets are a folder, by demo name.
    let assetDirectories: [String: StaticFiles]
    let logger: Logger
    /// The OpenAPI 3.1 document of the JSON API: Resources/openapi.json with the registered
    /// lists' names, actions and items filled in (``OpenAPIDocument``).
    let openAPIDocument: OpenAPIDocument.Served
    static let cookieName = "dw_session"
    /// `/healthz`'s answer (with the node's name, when it has one).
    let healthResponse: Response
    /// Where heavy reads of large lists run, in turns between sessions (`heavyRead`).
    let heavyWork: HeavyWork
    /// Every open stream's heartbeat, spread over the interval (run by ``runMaintenance()``).
    let heartbeats: HeartbeatSchedule
    /// The process's memory against `configuration.memoryLimitBytes`: what sheds load as RSS
    /// nears it, and refuses growth past it. Started, with the server's streams' step, by the
    /// memory service of ``services(server:shutdownGrace:)`` (which ``serve(_:host:port:limits:shutdownGrace:logger:)``
    /// runs); an app serving itself without them calls `memory.start()`.
    public let memory: MemoryGovernor
    /// The server's event-stream budget, once ``serve(_:host:port:limits:shutdownGrace:logger:)``
    /// gave it (for `/healthz/memory`).
    let streamBudget = Mutex<EventStreamBudget?>(nil)
    /// What streams admitted and not yet open will cost (``StreamReservation``).
    let streamReservations = StreamReservation.Total()
    /// What `/metrics` reads besides the app's state (``MetricsState``).
    let metricsState = MetricsState()

    public init(configuration: WebConfiguration, logger: Logger = Logger(label: "DiffableWeb")) async throws {
        self.configuration = configuration
        self.logger = logger
        heavyWork = HeavyWork(limits: .init(threads: configuration.heavyWorkThreads,
                                            waitingPerSession: configuration.heavyWorkWaitingPerSession,
                                            waitingTotal: configuration.heavyWorkWaitingTotal))
        heartbeats = HeartbeatSchedule(interval: configuration.heartbeatInterval)
        demos = configuration.demos
        assetDirectories = Self.assetDirectories(configuration.demos)
        var names = Set<String>()
        for demo in demos where !names.insert(demo.name).inserted || !Self.isValidDemoName(demo.name) {
            throw ConfigurationError.invalidDemoName(demo.name)
        }
        // Directories by their real paths: a link to one (the repository's `templates` and
        // `Public` link into the library's resources) is not walked by the template loader.
        let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        var directories = ([configuration.templatesDirectory] + configuration.extraTemplatesDirectories).map(real)
        for directory in demos.compactMap(\.templatesDirectory).map(real) where !directories.contains(directory) { directories.append(directory) }
        renderer = try await Renderer(templatesDirectories: directories, required: demos.flatMap(\.templates))
        staticFiles = StaticFiles(root: URL(fileURLWithPath: real(configuration.publicDirectory)), cacheControl: "no-cache")
        let store: (any SessionStore)?
        if let given = configuration.sessionStore {
            store = given
        } else {
            store = try configuration.stateDirectory.map { try SQLiteSessionStore(directory: $0, eventLogCapacity: configuration.eventLogCapacity) }
        }
        self.store = store
        let memory = MemoryGovernor(limit: configuration.memoryLimitBytes)
        self.memory = memory
        let budget = MemoryBudget(limit: configuration.memoryTotalBytes, governor: memory)
        let sessions = SessionRegistry(maximumCount: configuration.maximumSessions, idleTimeout: configuration.sessionIdleTimeout,
                                       store: store, memoryBudget: budget,
                                       sessionMemoryLimit: configuration.sessionMemoryBytes, logger: logger)
        self.sessions = sessions
        // Shed in order as RSS nears the limit: caches (and the lists' layouts), then idle
        // sessions (saved: they come back); the streams' step is the server's (`serve`).
        let heldLayouts = self.heldLayouts
        memory.register(.caches) { _ in
            let bytes = DroppableCaches.shared.dropAll() + heldLayouts.dropAll() * HeldLayouts.layoutBytes
            // Caches that refilled with a few cells since the last round do not count as shed.
            return MemoryGovernor.Shed(count: bytes >= 64 * 1024 ? 1 : 0, bytes: bytes)
        }
        memory.register(.idleSessions) { excess in
            let (evicted, freed) = sessions.evictIdle(freeing: excess)
            return MemoryGovernor.Shed(count: evicted, bytes: freed)
        }
        memory.registerPart("sessions") { budget.usedBytes }
        memory.registerPart("caches") { DroppableCaches.shared.heldBytes }
        if let store {
            // Another process wrote a list this one follows: its streams get the change. After
            // a reconnection (notifications may have been lost), every list catches up.
            store.observeChanges(connected: {
                for session in sessions.all {
                    for list in session.existingLists.values { Task { await list.refresh() } }
                }
            }, changed: { key, version in
                guard let list = sessions.existing(key.session)?.existingList(named: key.demo), list.version < version else { return }
                Task { await list.refresh() }
            })
        }
        var healthy = #"{"status":"ok"}"#
        if let node = configuration.nodeName {
            var writer = JSONWriter(capacity: 48)
            writer.raw("{\"status\":\"ok\",\"node\":"); writer.string(node); writer.raw("}")
            healthy = writer.text
        }
        healthResponse = Response.json(Data(healthy.utf8), headers: ["Cache-Control": "no-store"])
        WebMetrics.prepare(lists: demos.map(\.name))
        guard let document = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw ConfigurationError.missingResource("openapi.json")
        }
        openAPIDocument = try OpenAPIDocument.Served(base: try Data(contentsOf: document), demos: demos)
    }

    func demo(named name: String) -> DemoDescriptor? { demos.first { $0.name == name } }

    /// A demo's name is one URL path segment: lowercase letters, digits and `-`.
    static func isValidDemoName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }

    /// Static files, answered synchronously on the server's thread (`HTTPServer.Configuration.
    /// immediateHandler`): `nil` for every routed path and for files that do not exist, which
    /// then take the ordinary async route (and its 404).
    ///
    /// `/healthz` is answered here too: a health check never queues behind heavy requests.
    public func immediateResponse(_ request: Request) -> Response? {
        guard request.method == .get || request.method == .head, let first = request.pathSegments.first else { return nil }
        if first == "healthz", request.pathSegments.count == 1 { return secured(healthResponse) }
        if first == "healthz", request.pathSegments.count == 2, request.pathSegments[1] == "memory" { return secured(memoryResponse()) }
        if first == "metrics", request.pathSegments.count == 1 {
            return secured(metricsResponse() ?? errorResponse(HTTPError(.notFound, message: "This server exports no metrics"), for: request))
        }
        // A new stream the process has no memory for is refused here, before a session is made
        // for it or a task runs: a crowd of them costs the server's thread a few µs each.
        if request.method == .get, request.pathSegments.last == "events", let refusal = streamAdmissionError() {
            return secured(errorResponse(httpError(for: refusal, request), for: request))
        }
        guard !["demos", "api", "openapi.json", "__test"].contains(first) else { return nil }
        return staticFiles.response(for: request).map(secured)
    }

    /// Sends heartbeats (spread over the interval: MicroHTTP's `HeartbeatSchedule`) and, once an
    /// interval, drops idle layouts and idle sessions (`SessionMaintenance`) until the task is
    /// cancelled.
    public func runMaintenance() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.heartbeats.run() }
            group.addTask {
                var maintenance = SessionMaintenance(sessions: self.sessions, layouts: self.heldLayouts,
                                                     roundInterval: self.configuration.heartbeatInterval)
                while !Task.isCancelled {
                    try? await Task.sleep(for: self.configuration.heartbeatInterval)
                    if Task.isCancelled { break }
                    let expired = maintenance.round().expired
                    self.recordGauges()
                    if expired > 0 { self.logger.debug("expired \(expired) idle sessions") }
                }
            }
        }
    }

    /// Closes the store's connections (the last step of a stop). Every acknowledged change
    /// is saved already: a write's events, and its answer, wait for its save.
    public func close() async {
        await store?.close()
    }

    /// Closes every stream (clean shutdown: clients reconnect elsewhere or later).
    public func closeAllStreams() {
        for session in sessions.all { session.closeStreams() }
    }

    public var sessionCount: Int { sessions.count }

    /// The list for a session and demo, laid out for the given viewport (or the default).
    func list(_ session: Session, _ descriptor: DemoDescriptor) async throws -> LiveList {
        try await session.list(for: descriptor, renderer: renderer,
                     container: LayoutContainer(width: configuration.defaultViewport.width, height: configuration.defaultViewport.height),
                     logCapacity: configuration.eventLogCapacity, heldLayouts: heldLayouts)
    }
}

/// Why a ``WebApp`` could not start.
public enum ConfigurationError: Error, CustomStringConvertible {
    case invalidDemoName(String)
    case missingResource(String)
    public var description: String {
        switch self {
        case .invalidDemoName(let name): "Demo name “\(name)” is used twice or is not lowercase letters, digits and -"
        case .missingResource(let name): "\(name) is not in the DiffableWeb bundle"
        }
    }
}
