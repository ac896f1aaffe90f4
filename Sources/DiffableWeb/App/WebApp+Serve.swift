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
        AllocatorPolicy.apply()
        let app = try await WebApp(configuration: configuration, logger: logger)
        var serverConfiguration = HTTPServer.Configuration(host: host, port: port, limits: limits)
        serverConfiguration.immediateHandler = { app.immediateResponse($0) }
        serverConfiguration.routeTemplate = { WebApp.routeTemplate(method: $0, rawPath: $1) }
        // `/healthz` and static files are answered on libmicrohttpd's threads: ahead of the
        // handlers' threads when the process may say so (as root).
        // −3, not more: at −10 they preempted the handlers' threads so often that an operation
        // cost 10% more server CPU under load (api_load.py), for no better p99 than −3 gives.
        serverConfiguration.libraryThreadNiceness = -3
        let server = try HTTPServer(configuration: serverConfiguration, logger: logger) { request in
            await app.respond(request)
        }
        try server.start()
        app.startMemoryGovernor(streams: server.eventStreamBudget, bodies: { server.requestBodyBytes })
        logger.info("DiffableWeb on http://\(host):\(server.port)/ (public: \(configuration.publicDirectory), templates: \(configuration.templatesDirectory))")
        FileHandle.standardOutput.write(Data("Listening on http://\(host):\(server.port)/\n".utf8))

        let maintenance = Task { await app.runMaintenance() }
        let stopping = Mutex<Task<Void, Never>?>(nil)
        await Signals.waitForTermination {
            // On the signal's own thread: requests after the signal get 503 from now on.
            server.beginShutdown(gracePeriod: shutdownGrace)
            logger.info("stopping")
            maintenance.cancel()
            app.memory.stop()
            // Work still running at the end of the grace period is abandoned: the process exits
            // at the latest this long after the signal (a change answered 2xx was saved before
            // its answer).
            let closed = Signals.Flag()
            Signals.exitLater(after: shutdownGrace + .milliseconds(750), unless: closed, logger: logger)
            // The stop's own steps run on a thread of their own: under CPU load (every thread of
            // the cooperative pool in a long handler) a task on the pool may wait for seconds.
            let executor = DedicatedThreadExecutor(name: "diffable-web.stop")
            stopping.withLock {
                $0 = Task(executorPreference: executor, priority: .high) {
                    // Streams end cleanly (chunked terminator), in-flight requests get the grace
                    // period, and the server logs what it closed, finished and cut.
                    await server.shutdown(gracePeriod: shutdownGrace)
                    await app.close()
                    closed.set()
                    // Handlers abandoned at the deadline may still hold the pool, and with it
                    // the return from `main`: the work is done, so the process ends here.
                    exit(0)
                }
            }
        }
        await stopping.withLock { $0 }?.value
    }
}

/// Waits for SIGINT or SIGTERM.
enum Signals {
    /// Returns after SIGINT or SIGTERM, once `onSignal` ran: on a serial queue of its own (its
    /// own thread, whatever the cooperative pool is doing), once, for the first signal.
    static func waitForTermination(onSignal: @escaping @Sendable () -> Void = {}) async {
        let queue = DispatchQueue(label: "diffable-web.signals")
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: queue)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once(continuation)
            for source in sources {
                source.setEventHandler { once.resume(after: onSignal) }
                source.resume()
            }
        }
        for source in sources { source.cancel() }
    }

    /// A flag set once, readable from any thread.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    /// Ends the process `delay` from now unless `done` is set by then (a thread of its own).
    static func exitLater(after delay: Duration, unless done: Flag, logger: Logger) {
        let (seconds, attoseconds) = delay.components
        let interval = Double(seconds) + Double(attoseconds) / 1e18
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: interval)
            guard !done.isSet else { return }
            logger.warning("the stop did not finish in time: exiting with work still running")
            exit(0)
        }
    }

    /// Resumes a continuation at most once, whichever signal comes first.
    final class Once: Sendable {
        private let continuation: Mutex<CheckedContinuation<Void, Never>?>
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }
        func resume(after first: () -> Void = {}) {
            guard let continuation = self.continuation.withLock({ $0.take() }) else { return }
            first()
            continuation.resume()
        }
    }
}
