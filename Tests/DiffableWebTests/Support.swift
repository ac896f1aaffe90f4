import Foundation
import MicroHTTP
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The package root, found from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

func makeApp(_ configure: (inout WebConfiguration) throws -> Void = { _ in }) async throws -> WebApp {
    var configuration = WebConfiguration(publicDirectory: packageRoot + "/Public", templatesDirectory: packageRoot + "/templates",
                                         demos: try BuiltInDemos.table())
    configuration.testHooks = true
    // The tests' own lists borrow the demos' cells (`cells/number`).
    configuration.extraTemplatesDirectories = [BuiltInDemos.templatesDirectory].compactMap { $0 }
    try configure(&configuration)
    return try await WebApp(configuration: configuration)
}

extension Response {
    var text: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }
    var json: [String: Any]? {
        guard case .bytes(let bytes) = body else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
    /// The session cookie this response sets, if any.
    var sessionCookie: String? {
        for value in headers.values(for: "Set-Cookie") where value.hasPrefix("dw_session=") {
            return String(value.dropFirst("dw_session=".count).prefix { $0 != ";" })
        }
        return nil
    }
}

/// A browser-like client: keeps the session cookie between requests.
final class Visitor: @unchecked Sendable {
    // Used from one test task at a time; the cookie is plain state of that test.
    let app: WebApp
    var cookie: String?
    init(_ app: WebApp) { self.app = app }

    @discardableResult
    func send(_ method: HTTPMethod, _ target: String, json: String? = nil, form: String? = nil,
              headers extra: [String: String] = [:]) async -> Response {
        var headers: HTTPHeaders = [:]
        if let cookie { headers["Cookie"] = "dw_session=\(cookie)" }
        var body: [UInt8] = []
        if let json { headers["Content-Type"] = "application/json"; body = Array(json.utf8) }
        if let form { headers["Content-Type"] = "application/x-www-form-urlencoded"; body = Array(form.utf8) }
        for (name, value) in extra { headers[name] = value }
        let response = await app.handle(Request(method: method, target: target, headers: headers, body: body))
        if let set = response.sessionCookie { cookie = set }
        return response
    }

    /// The live list this visitor's session has for a demo.
    func list(_ demo: String) -> LiveList? {
        guard let cookie, let id = SessionID(cookie), let session = app.sessions.existing(id) else { return nil }
        return session.existingLists[demo]
    }
}

/// The JSON payload of a logged event.
func payload(_ event: LoggedEvent) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(event.data.text.utf8))) as? [String: Any] ?? [:]
}

extension WebApp {
    /// The live list a session cookie has for a demo (created by a page visit or a stream).
    func sessionList(cookie: String, demo: String) -> LiveList? {
        guard let id = SessionID(cookie), let session = sessions.existing(id) else { return nil }
        return session.existingLists[demo]
    }

    /// The share id (`/api/sessions/{id}`) of a session cookie.
    func shareID(cookie: String) -> String? {
        guard let id = SessionID(cookie) else { return nil }
        return sessions.existing(id)?.shareID.value
    }
}

/// A fresh directory for a store (the caller removes it).
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dw-state-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
