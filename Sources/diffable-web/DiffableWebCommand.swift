import ArgumentParser
import DiffableWebCommands

/// `diffable-web`: serves the demos (the default), or talks to a running server. This build
/// keeps sessions in SQLite or in memory; `diffable-web-postgres` is the same command with
/// PostgreSQL (`--database-url`), built only when asked for (it compiles SwiftNIO).
@main
struct DiffableWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diffable-web",
        abstract: "Live, diffed, animated lists: serve the DiffableWeb demos, or script a running server.",
        discussion: "`diffable-web serve --help` lists the server's flags; `diffable-web help action` the client's.",
        subcommands: [Serve.self, SnapshotCommand.self, ActionCommand.self],
        defaultSubcommand: Serve.self)
}

/// `diffable-web serve` (the default): starts the server with the demos.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the demos (the default command).")

    @OptionGroup var options: ServeOptions

    // Not in --help (scripts/cluster reads --help to learn whether a binary has PostgreSQL):
    // here only to say where the flag lives.
    @Option(help: .hidden)
    var databaseURL: String?

    func run() async throws {
        if databaseURL != nil { throw ValidationError(PostgresBuild.missing) }
        try options.bootstrapLogging()
        let metrics = PrometheusMetrics.bootstrap()
        try await options.serve { configuration, _ in configuration.metricsExposition = metrics }
    }
}
