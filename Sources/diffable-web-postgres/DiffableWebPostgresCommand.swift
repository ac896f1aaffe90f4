import ArgumentParser
import DiffableWeb
import DiffableWebCommands
import DiffableWebPostgres

/// `diffable-web-postgres`: `diffable-web` with the PostgreSQL store, for several server
/// processes on one database (`scripts/cluster`). Built only when asked for:
/// `swift build -c release --product diffable-web-postgres`.
@main
struct DiffableWebPostgresCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diffable-web-postgres",
        abstract: "diffable-web with PostgreSQL: serve the demos with sessions in a shared database, or script a running server.",
        discussion: "`diffable-web-postgres serve --help` lists the server's flags.",
        subcommands: [Serve.self, SnapshotCommand.self, ActionCommand.self],
        defaultSubcommand: Serve.self)
}

/// `diffable-web-postgres serve` (the default): `diffable-web serve` plus `--database-url`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the demos (the default command).")

    @OptionGroup var options: ServeOptions

    @Option(help: "A PostgreSQL database that several server processes share (postgres://user@host:5432/database); replaces --state-dir.")
    var databaseURL: String?

    func run() async throws {
        try options.bootstrapLogging()
        let metrics = PrometheusMetrics.bootstrap()
        try await options.serve { configuration, logger in
            configuration.metricsExposition = metrics
            guard let databaseURL else { return }
            guard !options.memoryOnly else { throw ValidationError("--database-url and --memory-only exclude each other") }
            configuration.sessionStore = try await PostgresSessionStore(url: databaseURL, eventLogCapacity: configuration.eventLogCapacity,
                                                                        logger: logger)
        }
    }
}
