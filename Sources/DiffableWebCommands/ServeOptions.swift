import ArgumentParser
import DiffableWeb
import DiffableWebDemos
import Foundation
import Logging
import MicroHTTP
import ProcessMemory

/// `serve`'s flags and what they start: the server with the built-in demos. Both executables
/// use them (`diffable-web`, and `diffable-web-postgres`, which adds `--database-url`), so
/// their `serve --help` lists the same flags.
public struct ServeOptions: ParsableArguments {
    @Option(help: "The address to listen on.")
    public var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one and prints it).")
    public var port = 8080

    @Option(help: "The directory of static files (default: Public/ of the package).")
    public var publicDir: String?

    @Option(help: "The directory of Mustache templates (default: templates/ of the package).")
    public var templatesDir: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    public var logLevel: String = "info"

    @Option(help: "Log lines on standard error: text (one line for people) or json (one JSON object a line, for collectors).")
    public var logFormat: String = LogFormat.text.rawValue

    @Option(help: "At most this many sessions are kept.")
    public var maxSessions = 10_000

    @Option(help: "Sessions idle this many minutes are dropped.")
    public var sessionTimeout = 30

    @Option(help: ArgumentHelp(
        "The process's memory limit: 256M, 2G, bytes (default: the cgroup's limit, else half of physical memory, less a margin; 0: none).",
        discussion: "As RSS nears it the server drops caches, evicts idle sessions (saved), cuts the slowest streams, then answers 503 memory_full to what would grow. The budgets below default to shares of it.",
        valueName: "size"))
    public var memoryLimit: String?

    @Option(help: "MiB one session's lists may hold in memory; a write past it is refused (422 memory_budget). 0: no limit. Default: 16, or a quarter of --memory-total if less.")
    public var sessionMemory: Int?

    @Option(help: "MiB all sessions' lists may hold; past it idle sessions are evicted (they stay saved), then growing writes and new sessions get 503 memory_full. 0: no limit. Default: 512, or half of --memory-limit if less.")
    public var memoryTotal: Int?

    @Option(help: "Scale the mountains data set to this many entries (load tests).")
    public var mountains: Int?

    @Option(help: "A folder of JPEG, PNG or WebP files for the Photos demo (default: generated landscapes).")
    public var photos: String?

    @Option(help: "The simulated load time of a photo's image, in milliseconds: a range (50-400) or one value (0 loads at once).")
    public var imageLatency = "50-400"

    @Option(help: "The simulated load time of a Destinations post's picture, in milliseconds: a range (100-800) or one value.")
    public var assetLatency = "100-800"

    @Option(help: "Milliseconds between the URL publisher's batches: a range (1000-3000) or one value.")
    public var publishInterval = "1000-3000"

    @Option(help: "Where sessions are saved so that they survive a restart (an SQLite file in this directory).")
    public var stateDir = ".state"

    @Flag(help: "Keep sessions in memory only (nothing is saved; a restart forgets them).")
    public var memoryOnly = false

    @Option(help: ArgumentHelp(
        "The server's address as browsers reach it (https://example.org), for the pages' “Script this session” lines.",
        discussion: "By default the pages use the origin of the request itself; set this behind a proxy that rewrites Host.",
        valueName: "url"))
    public var publicURL: String?

    @Option(help: "This process's name behind a proxy: the X-DiffableWeb-Node header of every response, and in /healthz.")
    public var nodeName: String?

    @Flag(help: "Enable test-only endpoints (POST /__test/drop-streams).")
    public var testHooks = false

    // MARK: Limits (MicroHTTP's `Limits`; defaults fit a public site)

    @Option(help: "Connections served at once, event streams included; past it clients get a quick 503.")
    public var connectionLimit = Limits().maxConnections

    @Option(help: ArgumentHelp(
        "Connections one client address may hold; 0 turns the cap off.",
        discussion: "Behind a reverse proxy every client has the proxy's address: raise this or pass 0."))
    public var connectionsPerAddress = Limits().maxConnectionsPerAddress

    @Option(help: "Seconds a client has to send a whole request head (the body gets 3× as long); 0 turns both deadlines off.")
    public var requestDeadline: Double = 10

    @Option(help: "Seconds without any progress after which a connection is closed (idle timeout).")
    public var idleTimeout: Double = 30

    @Option(help: "MiB of memory all event streams together may hold (unsent data as allocated, deflate states); past it the streams furthest behind are cut. 0: no budget. Default: 256, or a quarter of --memory-limit if less.")
    public var streamBufferTotal: Int?

    @Option(help: ArgumentHelp(
        "Threads for heavy reads (a layout or a snapshot of a list of --heavy-read-items items or more), in turns between sessions (default: half the cores, at least one).",
        discussion: "They run beside the threads every other request runs on, so one session's heavy reads do not delay another session."))
    public var heavyThreads: Int?

    @Option(help: "Lists of at least this many items (default 2000) are heavy: their layout and snapshot reads run on the heavy-read threads (0: every list; above 100000: none, as before issue 22).")
    public var heavyReadItems: Int?

    @Option(help: "Seconds in-flight requests get to finish on SIGTERM/SIGINT before the server stops.")
    public var shutdownGrace: Double = 5

    @Option(help: ArgumentHelp(
        "When the session cookie is Secure: off, on, or forwarded (when a proxy says X-Forwarded-Proto: https).",
        discussion: "Use forwarded only behind a proxy that sets or strips X-Forwarded-Proto itself."))
    public var secureCookies: String = CookieSecurity.off.rawValue

    @Option(help: ArgumentHelp(
        "An origin (https://example.org) whose pages may send state-changing requests besides the server's own; repeatable.",
        discussion: "Browsers' POSTs from any other origin are refused (403 cross_origin). For a proxy that rewrites Host."))
    public var allowedOrigin: [String] = []

    public init() {}

    /// Builds the configuration, lets `customize` change it (the PostgreSQL build sets its
    /// store there), and serves until SIGTERM/SIGINT. Logging is the executable's to start, once,
    /// before this (``bootstrapLogging()``): a library never bootstraps it.
    public func serve(customize: (inout WebConfiguration, Logger) async throws -> Void = { _, _ in }) async throws {
        _ = try level()
        let logger = Logger(label: "diffable-web")
        var configuration = try configuration(logger: logger)
        try await customize(&configuration, logger)
        try await WebApp.serve(configuration, host: host, port: port, limits: try limits(),
                               shutdownGrace: .milliseconds(Int(max(0, shutdownGrace) * 1000)), logger: logger)
    }

    public func validate() throws {
        _ = try level()
        _ = try format()
    }

    /// The server's configuration from the flags (the session store: SQLite in `--state-dir`,
    /// or none with `--memory-only`).
    public func configuration(logger: Logger) throws -> WebConfiguration {
        var configuration = WebConfiguration(
            publicDirectory: try publicDir ?? PackageDirectories.find("Public"),
            templatesDirectory: try templatesDir ?? PackageDirectories.find("templates"),
            demos: try BuiltInDemos.table(demoOptions(), logger: logger))
        configuration.maximumSessions = maxSessions
        configuration.sessionIdleTimeout = .seconds(max(1, sessionTimeout) * 60)
        let shares = WebConfiguration.MemoryShares(limit: try processMemoryLimit().bytes)
        let total = memoryTotal.map { $0 << 20 } ?? shares.sessions
        let session = sessionMemory.map { $0 << 20 } ?? (total > 0 ? min(shares.session, total / 4) : shares.session)
        guard session >= 0, total >= 0, session <= 1 << 40, total <= 1 << 50 else {
            throw ValidationError("--session-memory and --memory-total take 0 or more MiB")
        }
        configuration.memoryLimitBytes = shares.limit
        configuration.streamMemoryBytes = shares.streamsHeld
        configuration.sessionMemoryBytes = session
        configuration.memoryTotalBytes = total
        configuration.testHooks = testHooks
        configuration.stateDirectory = memoryOnly ? nil : stateDir
        configuration.nodeName = nodeName
        if let heavyReadItems {
            guard heavyReadItems >= 0 else { throw ValidationError("--heavy-read-items takes 0 or more") }
            configuration.heavyReadItems = heavyReadItems
        }
        if let heavyThreads {
            guard (1...64).contains(heavyThreads) else { throw ValidationError("--heavy-threads takes 1…64") }
            configuration.heavyWorkThreads = heavyThreads
        }
        guard let cookieSecurity = CookieSecurity(rawValue: secureCookies.lowercased()) else {
            throw ValidationError("--secure-cookies takes off, on or forwarded")
        }
        configuration.secureCookies = cookieSecurity
        configuration.allowedOrigins = Set(allowedOrigin.map { $0.lowercased() })
        configuration.publicURL = try publicURL.map(Self.publicOrigin)
        return configuration
    }

    /// `--memory-limit`, or the limit found for this process (see `MemoryLimit.detect()`).
    public func processMemoryLimit() throws -> MemoryLimit {
        guard let memoryLimit else { return MemoryLimit.detect() }
        guard let bytes = MemorySize.parse(memoryLimit), bytes == 0 || bytes >= 16 << 20 else {
            throw ValidationError("--memory-limit takes a size of 16M or more (256M, 2G, 1.5GiB, bytes), or 0 for none: \(memoryLimit)")
        }
        return MemoryLimit(bytes: bytes)
    }

    /// `--public-url`: an http or https URL, without a trailing slash.
    public static func publicOrigin(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw ValidationError("--public-url takes an http or https URL (https://example.org): \(text)")
        }
        var origin = trimmed
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// The built-in demos' options from the flags.
    public func demoOptions() throws -> BuiltInDemos.Options {
        var options = BuiltInDemos.Options()
        options.mountainCount = mountains
        options.photosDirectory = photos
        options.imageLatency = try Self.milliseconds(imageLatency, flag: "--image-latency", lowest: 0)
        options.publishInterval = try Self.milliseconds(publishInterval, flag: "--publish-interval", lowest: 10)
        options.assetLatency = try Self.milliseconds(assetLatency, flag: "--asset-latency", lowest: 0)
        return options
    }

    /// `50-400` or `0`: milliseconds in `lowest`…60000.
    public static func milliseconds(_ text: String, flag: String, lowest: Int) throws -> ClosedRange<Int> {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(bounds.count), let low = bounds.first ?? nil, let high = bounds.last ?? nil,
              low >= lowest, low <= high, high <= 60_000 else {
            throw ValidationError("\(flag) takes milliseconds in \(lowest)…60000: one value or a range (low-high)")
        }
        return low...high
    }

    /// The server's limits from the flags.
    public func limits() throws -> Limits {
        let shares = WebConfiguration.MemoryShares(limit: try processMemoryLimit().bytes)
        let streamBufferTotal = self.streamBufferTotal ?? (shares.streams >> 20)
        guard connectionLimit > 0, connectionsPerAddress >= 0, requestDeadline >= 0, idleTimeout > 0, streamBufferTotal >= 0 else {
            throw ValidationError("--connection-limit and --idle-timeout must be positive; the other limits may be 0 (off), never negative")
        }
        let day = 86_400.0
        guard requestDeadline <= day, idleTimeout <= day, shutdownGrace >= 0, shutdownGrace <= day,
              streamBufferTotal <= 1 << 20, connectionLimit <= 1 << 20, connectionsPerAddress <= 1 << 20 else {
            throw ValidationError("times are at most a day (86400 s), --stream-buffer-total at most 1 TiB, connection counts at most 1,048,576")
        }
        var limits = Limits()
        limits.maxConnections = connectionLimit
        limits.maxConnectionsPerAddress = connectionsPerAddress
        limits.requestHeadDeadline = .milliseconds(Int(requestDeadline * 1000))
        limits.requestBodyDeadline = .milliseconds(Int(requestDeadline * 3000))
        limits.requestTimeout = .milliseconds(Int(idleTimeout * 1000))
        limits.maxEventStreamBufferTotalBytes = streamBufferTotal << 20
        // Bodies being read: at most an eighth of the process's limit (256 MiB without one).
        if shares.limit > 0 { limits.maxRequestBodyTotalBytes = min(limits.maxRequestBodyTotalBytes, shares.limit / 8) }
        return limits
    }
}
