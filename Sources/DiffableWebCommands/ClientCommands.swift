import ArgumentParser
import Foundation

/// Options shared by the commands that talk to a running server.
public struct ServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server's base URL (default: $\(ServerAddress.environmentVariable), else \(ServerAddress.defaultBase)).",
                               valueName: "url"))
    public var base: String?

    @Option(help: "The session's share id (the page's “Script this session” panel).")
    public var session: String

    public init() {}

    /// The server's base URL: `--base`, else `$DIFFABLE_WEB_URL`, else the default.
    public func baseURL() throws -> URL {
        try ServerAddress.resolve(base: base, environment: ProcessInfo.processInfo.environment)
    }

    /// `path` of this session's demo on the server.
    public func url(demo: String, _ path: String) throws -> URL {
        try ServerAddress.url(try baseURL(), "/api/sessions/\(ServerAddress.escaped(session))/demos/\(ServerAddress.escaped(demo))\(path)")
    }
}

/// `diffable-web snapshot --session ID mountains`: prints a session's snapshot.
public struct SnapshotCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "snapshot", abstract: "Print a session's snapshot of a demo.",
        discussion: DemoHelp.demoList)

    @OptionGroup var server: ServerOptions

    @Argument(help: ArgumentHelp("The demo: \(DemoHelp.demoNames).", valueName: "demo"))
    var demo: String

    @Flag(help: "Print the JSON as the server sent it.")
    var json = false

    public init() {}

    public func run() async throws {
        try await ClientFailure.reporting {
            let body = try await HTTPCall.send("GET", try server.url(demo: demo, "/snapshot"))
            print(json ? String(decoding: body, as: UTF8.self) : try ClientOutput.snapshot(body))
        }
    }
}

/// `diffable-web action --session ID mountains search query=ben`: runs a demo action.
public struct ActionCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "action", abstract: "Run a demo action (e.g. mountains search query=ben, numbers append count=3).",
        discussion: DemoHelp.actionList)

    @OptionGroup var server: ServerOptions

    @Argument(help: ArgumentHelp("The demo: \(DemoHelp.demoNames).", valueName: "demo"))
    var demo: String

    @Argument(help: "The action (each demo's are listed above).")
    var action: String

    @Argument(help: "Parameters as name=value.")
    var parameters: [String] = []

    @Flag(help: "Print the JSON as the server sent it.")
    var json = false

    public init() {}

    public func validate() throws {
        _ = try ClientOutput.parameters(parameters)
    }

    public func run() async throws {
        try await ClientFailure.reporting {
            let body = try JSONSerialization.data(withJSONObject: try ClientOutput.parameters(parameters))
            let reply = try await HTTPCall.send("POST", try server.url(demo: demo, "/actions/\(ServerAddress.escaped(action))"), body: body)
            print(json ? String(decoding: reply, as: UTF8.self) : try ClientOutput.actionResult(reply, action: action))
        }
    }
}
