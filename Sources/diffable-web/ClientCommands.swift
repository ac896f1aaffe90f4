import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Options shared by the commands that talk to a running server.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's base URL.")
    var base = "http://127.0.0.1:8080"

    @Option(help: "The session's share id (the page's “Script this session” panel).")
    var session: String

    func url(_ path: String) throws -> URL {
        guard let url = URL(string: base.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path) else {
            throw ValidationError("Not a URL: \(base)")
        }
        return url
    }
}

/// `diffable-web snapshot --session ID mountains`: prints a session's snapshot.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "snapshot", abstract: "Print a session's snapshot of a demo.")

    @OptionGroup var server: ServerOptions

    @Argument(help: "The demo (mountains, numbers).")
    var demo: String

    @Flag(help: "Print the JSON as the server sent it.")
    var json = false

    func run() async throws {
        let body = try await HTTPCall.send("GET", try server.url("/api/sessions/\(server.session)/demos/\(demo)/snapshot"))
        if json { print(String(decoding: body, as: UTF8.self)); return }
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw HTTPCall.Failure("unexpected reply") }
        print("version \(object["version"] ?? "?")")
        for case let section as [String: Any] in object["sections"] as? [Any] ?? [] {
            let items = section["items"] as? [[String: Any]] ?? []
            print("\(section["id"] ?? "?") (\(items.count) items)")
            for item in items.prefix(50) {
                let data = (item["data"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                print("  \(item["id"] ?? "?")  \(data.joined(separator: "  "))")
            }
            if items.count > 50 { print("  … \(items.count - 50) more") }
        }
    }
}

/// `diffable-web action --session ID mountains search query=ben`: runs a demo action.
struct ActionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "action", abstract: "Run a demo action (e.g. search query=ben, append count=3).")

    @OptionGroup var server: ServerOptions

    @Argument(help: "The demo (mountains, numbers).")
    var demo: String

    @Argument(help: "The action (search, append, removeLast, removeCenter, move).")
    var action: String

    @Argument(help: "Parameters as name=value.")
    var parameters: [String] = []

    func run() async throws {
        var values: [String: String] = [:]
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "=") else { throw ValidationError("Parameters are name=value: \(parameter)") }
            values[String(parameter[..<equals])] = String(parameter[parameter.index(after: equals)...])
        }
        let body = try JSONSerialization.data(withJSONObject: values)
        let reply = try await HTTPCall.send("POST", try server.url("/api/sessions/\(server.session)/demos/\(demo)/actions/\(action)"), body: body)
        print(String(decoding: reply, as: UTF8.self))
    }
}

/// One HTTP call; a non-2xx status becomes an error carrying the server's JSON message.
enum HTTPCall {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func send(_ method: String, _ url: URL, body: Data? = nil) async throws -> Data {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode else { throw Failure("no HTTP response") }
        guard (200..<300).contains(status) else {
            let message = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["message"] as? String
            throw Failure("HTTP \(status): \(message ?? String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}
