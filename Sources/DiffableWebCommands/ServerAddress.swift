import ArgumentParser
import Foundation

/// Where the client commands find the server: `--base`, else `$DIFFABLE_WEB_URL`, else
/// `http://127.0.0.1:8080` (what `make run` serves).
public enum ServerAddress {
    public static let environmentVariable = "DIFFABLE_WEB_URL"
    public static let defaultBase = "http://127.0.0.1:8080"

    /// The base URL, without a trailing slash. `127.0.0.1:9000` means `http://127.0.0.1:9000`.
    /// - Throws: `ValidationError` naming where the text came from when it is not an http(s) URL.
    public static func resolve(base: String?, environment: [String: String]) throws -> URL {
        let fromEnvironment = environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let source = base != nil ? "--base" : fromEnvironment != nil ? environmentVariable : "the default"
        var text = (base ?? fromEnvironment ?? defaultBase).trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        if !text.contains("://") { text = "http://" + text }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw ValidationError("\(source) is not an http(s) URL such as \(defaultBase): \(base ?? fromEnvironment ?? "")")
        }
        return url
    }

    /// `base` followed by `path` (which starts with `/`).
    static func url(_ base: URL, _ path: String) throws -> URL {
        guard let url = URL(string: base.absoluteString + path) else { throw ValidationError("Not a URL: \(base.absoluteString)\(path)") }
        return url
    }

    /// A path component as typed (a session id, a demo or action name), percent-encoded.
    static func escaped(_ component: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return component.addingPercentEncoding(withAllowedCharacters: allowed) ?? component
    }

    /// `http://host:port` of a URL: what is unreachable when a call fails.
    static func origin(_ url: URL) -> String {
        "\(url.scheme ?? "http")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")"
    }
}
