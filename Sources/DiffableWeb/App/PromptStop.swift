import Dispatch
import Foundation
import Logging
import MicroHTTP
import Synchronization

/// The one part of a stop that ServiceLifecycle cannot give: a `ServiceGroup` hears SIGTERM
/// through an `AsyncStream` read by a task, so when every thread of the cooperative pool runs a
/// long handler (24 layouts of a 100,000-item list) it may hear it seconds late. A load balancer
/// needs the 503s at once, and the process must end within its grace period whatever the pool
/// is doing (`scripts/shutdown-test.py`).
///
/// So, on a Dispatch queue of its own (its own thread), at the first SIGTERM or SIGINT:
/// - `server.beginShutdown(gracePeriod:)`: new requests get `503 server_stopping` from now on,
///   and the grace period is kept by the server's own thread;
/// - a watchdog thread that ends the process `shutdownGrace + slack` after the signal unless
///   the stop finished (``finished()``): handlers abandoned at the end of the grace period may
///   hold the pool, and with it the rest of the stop and the return from `main`.
///
/// Everything else (the order of the stop, closing the store) is the `ServiceGroup`'s, which
/// gets the same signals (both handlers run: Dispatch delivers a signal to every source).
/// ```swift
/// let prompt = PromptStop.install(server: server, shutdownGrace: .seconds(5), logger: logger)
/// try await group.run()
/// prompt.finished()
/// ```
public final class PromptStop: Sendable {
    /// Kept while this object lives (Dispatch's sources are not `Sendable`: only touched here).
    private let sources: Mutex<[any DispatchSourceSignal]>
    private let flags = Flags()
    private let logger: Logger

    /// The signal handler's and this object's: whether a signal came, whether the stop finished.
    private final class Flags: Sendable {
        let signalled = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
    }

    /// Starts listening for SIGTERM and SIGINT (their default action, ending the process at
    /// once, is turned off: the stop is graceful).
    public static func install(server: HTTPServer, shutdownGrace: Duration, slack: Duration = .milliseconds(750),
                               logger: Logger) -> PromptStop {
        PromptStop(server: server, shutdownGrace: shutdownGrace, slack: slack, logger: logger)
    }

    private init(server: HTTPServer, shutdownGrace: Duration, slack: Duration, logger: Logger) {
        self.logger = logger
        let queue = DispatchQueue(label: "diffable-web.signals")
        let flags = self.flags
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                guard flags.signalled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
                server.beginShutdown(gracePeriod: shutdownGrace)
                logger.info("stopping")
                Self.exitLater(after: shutdownGrace + slack, unless: flags, logger: logger)
            }
            source.resume()
            return source
        }
        self.sources = Mutex(sources)
    }

    deinit {
        sources.withLock { sources in for source in sources { source.cancel() } }
    }

    /// Whether a signal came.
    public var signalled: Bool { flags.signalled.load(ordering: .acquiring) }

    /// The stop is done: the watchdog stands down.
    public func finished() {
        flags.finished.store(true, ordering: .releasing)
    }

    /// Ends the process `delay` from now unless the stop finished by then (a thread of its own).
    private static func exitLater(after delay: Duration, unless flags: Flags, logger: Logger) {
        let (seconds, attoseconds) = delay.components
        let interval = Double(seconds) + Double(attoseconds) / 1e18
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: interval)
            guard !flags.finished.load(ordering: .acquiring) else { return }
            logger.warning("the stop did not finish in time: exiting with work still running")
            exit(0)
        }
    }
}
