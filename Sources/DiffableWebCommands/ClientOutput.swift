import ArgumentParser
import Foundation

/// What `snapshot` and `action` print: the server's JSON read for a person, each answer
/// starting with the list's version (`--json` prints the JSON as sent instead).
enum ClientOutput {
    /// `name=value` arguments as an action's JSON body.
    static func parameters(_ arguments: [String]) throws -> [String: String] {
        var values: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("Parameters are name=value: \(argument)")
            }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        return values
    }

    /// `version N`, then each section with its item count and its first 50 items.
    static func snapshot(_ body: Data) throws -> String {
        let object = try jsonObject(body)
        var lines = ["version \(object["version"] ?? "?")"]
        for case let section as [String: Any] in object["sections"] as? [Any] ?? [] {
            let items = section["items"] as? [[String: Any]] ?? []
            lines.append("\(section["id"] ?? "?") (\(items.count) \(items.count == 1 ? "item" : "items"))")
            for item in items.prefix(50) {
                let data = (item["data"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                lines.append((["  \(item["id"] ?? "?")"] + data).joined(separator: "  "))
            }
            if items.count > 50 { lines.append("  … \(items.count - 50) more") }
        }
        return lines.joined(separator: "\n")
    }

    /// `version N` after the action, and what a reorder did (positions counted from 1).
    static func actionResult(_ body: Data, action: String) throws -> String {
        let object = try jsonObject(body)
        var lines = ["version \(object["version"] ?? "?")"]
        if let item = object["item"], let position = object["position"] as? Int {
            let count = (object["count"] as? Int).map { " of \($0)" } ?? ""
            lines.append("\(action): \(item) is now #\(position + 1)\(count)\(object["transaction"] == nil ? " (nothing moved)" : "")")
        }
        return lines.joined(separator: "\n")
    }

    private static func jsonObject(_ body: Data) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw ClientFailure("the server's answer is not a JSON object: \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
        return object
    }
}
