import ArgumentParser
import DiffableWeb
import DiffableWebPostgres
import Foundation
import Logging
import MicroHTTP

/// `diffable-web`: serves the demos (the default), or talks to a running server.
@main
struct DiffableWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diffable-web",
        abstract: "Live, diffed, animated lists: serve the DiffableWeb demos, or script a running server.",
        subcommands: [Serve.self, SnapshotCommand.self, ActionCommand.self],
        defaultSubcommand: Serve.self)
}

/// `diffable-web serve` (the default): starts the server with the demos.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the demos (the default command).")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one and prints it).")
    var port = 8080

    @Option(help: "The directory of static files (default: Public/ of the package).")
    var publicDir: String?

    @Option(help: "The directory of Mustache templates (default: templates/ of the package).")
    var templatesDir: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "At most this many sessions are kept.")
    var maxSessions = 10_000

    @Option(help: "Sessions idle this many minutes are dropped.")
    var sessionTimeout = 30

    @Option(help: "Scale the mountains data set to this many entries (load tests).")
    var mountains: Int?

    @Option(help: "A folder of JPEG, PNG or WebP files for the Photos demo (default: generated landscapes).")
    var photos: String?

    @Option(help: "The simulated load time of a photo's image, in milliseconds: a range (50-400) or one value (0 loads at once).")
    var imageLatency = "50-400"

    @Option(help: "The simulated load time of a Destinations post's picture, in milliseconds: a range (100-800) or one value.")
    var assetLatency = "100-800"

    @Option(help: "Milliseconds between the URL publisher's batches: a range (1000-3000) or one value.")
    var publishInterval = "1000-3000"

    @Option(help: "Where sessions are saved so that they survive a restart (an SQLite file in this directory).")
    var stateDir = ".state"

    @Flag(help: "Keep sessions in memory only (nothing is saved; a restart forgets them).")
    var memoryOnly = false

    @Option(help: "A PostgreSQL database that several server processes share (postgres://user@host:5432/database); replaces --state-dir.")
    var databaseURL: String?

    @Option(help: "This process's name behind a proxy: the X-DiffableWeb-Node header of every response, and in /healthz.")
    var nodeName: String?

    @Flag(help: "Enable test-only endpoints (POST /__test/drop-streams).")
    var testHooks = false

    // MARK: Limits (MicroHTTP's `Limits`; defaults fit a public site)

    @Option(help: "Connections served at once, event streams included; past it clients get a quick 503.")
    var connectionLimit = Limits().maxConnections

    @Option(help: ArgumentHelp(
        "Connections one client address may hold; 0 turns the cap off.",
        discussion: "Behind a reverse proxy every client has the proxy's address: raise this or pass 0."))
    var connectionsPerAddress = Limits().maxConnectionsPerAddress

    @Option(help: "Seconds a client has to send a whole request head (the body gets 3× as long); 0 turns both deadlines off.")
    var requestDeadline: Double = 10

    @Option(help: "Seconds without any progress after which a connection is closed (idle timeout).")
    var idleTimeout: Double = 30

    @Option(help: "MiB of unsent event-stream data all clients together may hold; past it the slowest readers are cut. 0: no budget.")
    var streamBufferTotal = Limits().maxEventStreamBufferTotalBytes >> 20

    @Option(help: "Seconds in-flight requests get to finish on SIGTERM/SIGINT before the server stops.")
    var shutdownGrace: Double = 5

    @Option(help: ArgumentHelp(
        "When the session cookie is Secure: off, on, or forwarded (when a proxy says X-Forwarded-Proto: https).",
        discussion: "Use forwarded only behind a proxy that sets or strips X-Forwarded-Proto itself."))
    var secureCookies: String = CookieSecurity.off.rawValue

    @Option(help: ArgumentHelp(
        "An origin (https://example.org) whose pages may send state-changing requests besides the server's own; repeatable.",
        discussion: "Browsers' POSTs from any other origin are refused (403 cross_origin). For a proxy that rewrites Host."))
    var allowedOrigin: [String] = []

    mutating func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
            throw ValidationError("Unknown log level \(logLevel)")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "diffable-web")
        var configuration = WebConfiguration(
            publicDirectory: try publicDir ?? PackageDirectories.find("Public"),
            templatesDirectory: try templatesDir ?? PackageDirectories.find("templates"),
            demos: try BuiltInDemos.table(demoOptions(), logger: logger))
        configuration.maximumSessions = maxSessions
        configuration.sessionIdleTimeout = .seconds(max(1, sessionTimeout) * 60)
        configuration.testHooks = testHooks
        configuration.stateDirectory = memoryOnly ? nil : stateDir
        if let databaseURL {
            guard !memoryOnly else { throw ValidationError("--database-url and --memory-only exclude each other") }
            configuration.sessionStore = try await PostgresSessionStore(url: databaseURL, eventLogCapacity: configuration.eventLogCapacity,
                                                                        logger: logger)
        }
        configuration.nodeName = nodeName
        guard let cookieSecurity = CookieSecurity(rawValue: secureCookies.lowercased()) else {
            throw ValidationError("--secure-cookies takes off, on or forwarded")
        }
        configuration.secureCookies = cookieSecurity
        configuration.allowedOrigins = Set(allowedOrigin.map { $0.lowercased() })
        try await WebApp.serve(configuration, host: host, port: port, limits: try limits(),
                               shutdownGrace: .milliseconds(Int(max(0, shutdownGrace) * 1000)), logger: logger)
    }

    /// The built-in demos' options from the flags.
    func demoOptions() throws -> BuiltInDemos.Options {
        var options = BuiltInDemos.Options()
        options.mountainCount = mountains
        options.photosDirectory = photos
        options.imageLatency = try Self.milliseconds(imageLatency, flag: "--image-latency", lowest: 0)
        options.publishInterval = try Self.milliseconds(publishInterval, flag: "--publish-interval", lowest: 10)
        options.assetLatency = try Self.milliseconds(assetLatency, flag: "--asset-latency", lowest: 0)
        return options
    }

    /// `50-400` or `0`: milliseconds in `lowest`…60000.
    static func milliseconds(_ text: String, flag: String, lowest: Int) throws -> ClosedRange<Int> {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(bounds.count), let low = bounds.first ?? nil, let high = bounds.last ?? nil,
              low >= lowest, low <= high, high <= 60_000 else {
            throw ValidationError("\(flag) takes milliseconds in \(lowest)…60000: one value or a range (low-high)")
        }
        return low...high
    }

    /// The server's limits from the flags.
    func limits() throws -> Limits {
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
        return limits
    }
}

/// Finds `Public/` and `templates/` when no directory is given: next to the working
/// directory, or in the package that built this executable (`.build/<config>/diffable-web`).
enum PackageDirectories {
    static func find(_ name: String) throws -> String {
        let fileManager = FileManager.default
        var candidates = [fileManager.currentDirectoryPath + "/" + name]
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(name).path)
            directory.deleteLastPathComponent()
        }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue { return candidate }
        }
        throw ValidationError("Cannot find the \(name)/ directory; pass --\(name == "Public" ? "public-dir" : "templates-dir")")
    }
}
