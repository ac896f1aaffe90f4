import Foundation

/// The OpenAPI document as served: `Resources/openapi.json` (every route, its parameters and
/// answers) with what depends on the registered lists filled in when the app starts: the
/// `demo` parameter's names, the `action` parameter's names and the action route's summary, and
/// each list's own operations (its actions with their parameters, its snapshot with its items'
/// data: ``addLists(_:itemKeys:paths:schemas:tags:)``), so that a list of the app's own (a
/// ``WebList``) is documented like the built-in ones and a client generated from the document
/// knows its actions and what they take.
enum OpenAPIDocument {
    /// The document for `demos`, as JSON; `itemKeys` names the keys of each list's item data
    /// (by list name), where known.
    /// - Throws: when `base` is not a JSON object (the bundled file is: a test checks it).
    static func build(base: Data, demos: [DemoDescriptor], itemKeys: [String: [String]] = [:]) throws -> Data {
        guard var document = try JSONSerialization.jsonObject(with: base) as? [String: Any],
              var paths = document["paths"] as? [String: Any] else {
            throw ConfigurationError.missingResource("openapi.json (not an OpenAPI object)")
        }
        var actions: [String] = []
        for demo in demos {
            for action in demo.actions where !actions.contains(action.name) { actions.append(action.name) }
        }
        let names = ["demo": demos.map(\.name), "action": actions]
        for (path, item) in paths {
            guard var item = item as? [String: Any] else { continue }
            item["parameters"] = (item["parameters"] as? [[String: Any]]).map { withNames($0, names) } ?? item["parameters"]
            for (method, operation) in item where method != "parameters" {
                guard var operation = operation as? [String: Any] else { continue }
                if let parameters = operation["parameters"] as? [[String: Any]] { operation["parameters"] = withNames(parameters, names) }
                if operation["operationId"] as? String == "runAction" {
                    operation["summary"] = "Run a demo action (" + demos.map { demo in
                        "\(demo.title): " + demo.actions.map(\.name).joined(separator: ", ")
                    }.joined(separator: "; ") + ")"
                }
                item[method] = operation
            }
            paths[path] = item
        }
        var components = document["components"] as? [String: Any] ?? [:]
        var schemas = components["schemas"] as? [String: Any] ?? [:]
        var tags = document["tags"] as? [[String: Any]] ?? []
        addLists(demos, itemKeys: itemKeys, paths: &paths, schemas: &schemas, tags: &tags)
        components["schemas"] = schemas
        document["components"] = components
        if !tags.isEmpty { document["tags"] = tags }
        document["paths"] = paths
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `parameters` with the `demo` and `action` path parameters' names set.
    private static func withNames(_ parameters: [[String: Any]], _ names: [String: [String]]) -> [[String: Any]] {
        parameters.map { parameter in
            guard parameter["in"] as? String == "path", let name = parameter["name"] as? String, let values = names[name],
                  var schema = parameter["schema"] as? [String: Any] else { return parameter }
            var parameter = parameter
            schema["enum"] = values
            parameter["schema"] = schema
            return parameter
        }
    }
}
