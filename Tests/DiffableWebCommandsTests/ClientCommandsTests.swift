import ArgumentParser
import DiffableWeb
import DiffableWebDemos
@testable import DiffableWebCommands
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Testing

@Suite("The diffable-web client commands")
struct ClientCommandsTests {
    // MARK: Where the server is

    @Test("the base URL is --base, else DIFFABLE_WEB_URL, else http://127.0.0.1:8080", arguments: [
        (nil, [:], "http://127.0.0.1:8080"),
        (nil, ["DIFFABLE_WEB_URL": ""], "http://127.0.0.1:8080"),
        (nil, ["DIFFABLE_WEB_URL": "http://10.0.0.2:9000/"], "http://10.0.0.2:9000"),
        ("https://example.org/dw/", ["DIFFABLE_WEB_URL": "http://10.0.0.2:9000"], "https://example.org/dw"),
        ("127.0.0.1:18200", [:], "http://127.0.0.1:18200"),
    ] as [(String?, [String: String], String)])
    func baseURL(flag: String?, environment: [String: String], expected: String) throws {
        #expect(try ServerAddress.resolve(base: flag, environment: environment).absoluteString == expected)
    }

    @Test("a base that is not an http(s) URL is refused, naming where it came from")
    func badBase() {
        #expect { try ServerAddress.resolve(base: "ftp://example.org", environment: [:]) } throws: { error in
            "\(error)".contains("--base is not an http(s) URL")
        }
        #expect { try ServerAddress.resolve(base: nil, environment: ["DIFFABLE_WEB_URL": "http://h:1/?q=1"]) } throws: { error in
            "\(error)".contains("DIFFABLE_WEB_URL is not an http(s) URL")
        }
    }

    @Test("--base reaches the request URL; session, demo and action are path-escaped")
    func requestURL() throws {
        var options = try ServerOptions.parse(["--base", "http://127.0.0.1:18201/", "--session", "a b/c"])
        #expect(try options.url(demo: "numbers", "/snapshot").absoluteString
                == "http://127.0.0.1:18201/api/sessions/a%20b%2Fc/demos/numbers/snapshot")
        options.base = nil
        #expect(try options.baseURL().absoluteString.hasPrefix("http"))
    }

    // MARK: Failures, in one line (those over real sockets: LiveClientCommandsTests)

    @Test("a failure ends the command with exit status 1, without the usage text")
    func failureExits() async {
        await #expect(throws: ExitCode.failure) {
            try await ClientFailure.reporting { throw ClientFailure("cannot reach http://127.0.0.1:1 (connection refused)") }
        }
    }

    // MARK: What the commands print

    @Test("snapshot and action both print the version first, read for a person, not raw JSON")
    func consistentOutput() throws {
        let snapshot = try ClientOutput.snapshot(Data(#"""
            {"version":3,"sections":[{"id":"main","items":[{"id":"n1","data":{"title":"Item 1"}},{"id":"n2","data":{"title":"Item 2"}}]}]}
            """#.utf8))
        #expect(snapshot == "version 3\nmain (2 items)\n  n1  title=Item 1\n  n2  title=Item 2")
        let append = try ClientOutput.actionResult(Data(#"{"version":4}"#.utf8), action: "append")
        #expect(append == "version 4")
        let reorder = try ClientOutput.actionResult(Data(#"""
            {"version":5,"item":"n5","position":0,"count":5,"transaction":{"difference":{"removals":[],"insertions":[]},"sections":["main"]}}
            """#.utf8), action: "reorder")
        #expect(reorder == "version 5\nreorder: n5 is now #1 of 5")
    }

    @Test("action parameters are name=value")
    func parameters() throws {
        #expect(try ClientOutput.parameters(["query=ben", "x=a=b", "empty="]) == ["query": "ben", "x": "a=b", "empty": ""])
        #expect(throws: (any Error).self) { try ClientOutput.parameters(["query"]) }
        #expect(throws: (any Error).self) { try ClientOutput.parameters(["=ben"]) }
    }

    // MARK: Help

    @Test("the help of snapshot and action names every built-in demo, and action's every action")
    func helpNamesTheDemos() throws {
        let demos = try BuiltInDemos.table()
        #expect(demos.count >= 9)
        let snapshotHelp = SnapshotCommand.helpMessage(columns: 1000)
        let actionHelp = ActionCommand.helpMessage(columns: 1000)
        let actionLines = actionHelp.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        for demo in demos {
            #expect(snapshotHelp.contains(demo.name), "snapshot --help lacks \(demo.name)")
            for action in demo.actions {
                #expect(actionLines.contains { $0.count >= 2 && $0[0] == demo.name && $0[1] == action.name },
                        "action --help lacks the line \(demo.name) \(action.name)")
            }
        }
        #expect(actionHelp.contains("query="), "action --help shows parameters")
        #expect(snapshotHelp.contains("DIFFABLE_WEB_URL") && actionHelp.contains("DIFFABLE_WEB_URL"))
    }

    // MARK: serve --public-url

    @Test("--public-url takes an http(s) URL, drops a trailing slash, and reaches the configuration")
    func publicURL() throws {
        #expect(try ServeOptions.publicOrigin("https://example.org/") == "https://example.org")
        #expect(try ServeOptions.publicOrigin("http://127.0.0.1:18202") == "http://127.0.0.1:18202")
        #expect(throws: (any Error).self) { try ServeOptions.publicOrigin("example.org") }
        #expect(throws: (any Error).self) { try ServeOptions.publicOrigin("javascript:alert(1)") }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let options = try ServeOptions.parse(["--public-url", "https://lists.example.org/", "--memory-only",
                                              "--public-dir", root + "/Public", "--templates-dir", root + "/templates"])
        #expect(try options.configuration(logger: Logger(label: "test")).publicURL == "https://lists.example.org")
        let without = try ServeOptions.parse(["--memory-only", "--public-dir", root + "/Public", "--templates-dir", root + "/templates"])
        #expect(try without.configuration(logger: Logger(label: "test")).publicURL == nil)
    }
}
