import Foundation

// Each registered list's own operations, beside the generic ones a script drives any list with:
//
//   POST /api/sessions/{id}/demos/numbers/actions/append   operationId numbers.append, body numbers.append.Input
//   GET  /api/sessions/{id}/demos/numbers/snapshot         operationId getSnapshot.numbers, answer numbers.Snapshot
//   PUT  /api/sessions/{id}/demos/numbers/snapshot         operationId putSnapshot.numbers (as putSnapshot)
//
// A concrete path is matched before a templated one (OpenAPI 3.1, "Path Templating Matching"),
// so a client generated from the document gets one method per list and action, with a typed body,
// and one snapshot read per list, with the keys its items' data has. The answers are the generic
// operation's (its `$ref`s to the file's components). Everything added here carries `x-list`, the
// list's name: scripts/api-contract takes it out to compare the rest with the file.

extension OpenAPIDocument {
    /// The generic action route's path, read off the route table (``Routes``; a test checks the
    /// table has it).
    static let actionPath = Routes.path(of: "runAction") ?? ""
    /// The generic snapshot route's path.
    static let snapshotPath = Routes.path(of: "getSnapshot") ?? ""

    /// The path of `list`'s `action` (`/api/sessions/{id}/demos/numbers/actions/append`).
    static func actionPath(list: String, action: String) -> String {
        actionPath.replacingOccurrences(of: "{demo}", with: list).replacingOccurrences(of: "{action}", with: action)
    }

    /// The path of `list`'s snapshot.
    static func snapshotPath(list: String) -> String { snapshotPath.replacingOccurrences(of: "{demo}", with: list) }

    /// Whether `name` can be a path's segment, an operationId's part and a component's name as it
    /// is: ASCII letters, digits, `_` and `-` (a list's name always is; an action of another name
    /// is documented by the generic path only).
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 95 || byte == 45
        }
    }

    /// Adds every list's operations and schemas to `paths` and `schemas`, and a tag per list.
    /// `itemKeys` names the keys of each list's item data, where known.
    /// - Complexity: O(lists · actions · parameters), plus copying the generic answers per operation.
    static func addLists(_ demos: [DemoDescriptor], itemKeys: [String: [String]],
                         paths: inout [String: Any], schemas: inout [String: Any], tags: inout [[String: Any]]) {
        guard let action = paths[actionPath] as? [String: Any], let runAction = action["post"] as? [String: Any] else { return }
        let snapshot = paths[snapshotPath] as? [String: Any] ?? [:]
        // The session's id, as the generic paths take it (the list and the action are in the path).
        let id = (action["parameters"] as? [[String: Any]] ?? []).filter { $0["name"] as? String == "id" }
        guard !id.isEmpty else { return }
        for demo in demos where isPlainName(demo.name) {
            let list = demo.name
            tags.append(["name": list, "description": demo.summary.isEmpty ? demo.title : "\(demo.title): \(demo.summary)", "x-list": list])
            for action in demo.actions where isPlainName(action.name) {
                let input = "\(list).\(action.name).Input"
                var schema = inputSchema(of: action)
                schema["x-list"] = list
                schemas[input] = schema
                var json: [String: Any] = ["schema": ["$ref": "#/components/schemas/\(input)"]]
                if let example = example(demo, action) { json["example"] = example }
                var operation: [String: Any] = [
                    "operationId": "\(list).\(action.name)",
                    "tags": [list],
                    "summary": "\(demo.title): \(action.name)",
                    "description": action.description,
                    "requestBody": [
                        "required": action.parameters.contains(where: \.required),
                        "content": ["application/json": json],
                    ] as [String: Any],
                ]
                operation["responses"] = runAction["responses"]
                paths[actionPath(list: list, action: action.name)] = ["parameters": id, "post": operation, "x-list": list]
            }
            guard var get = snapshot["get"] as? [String: Any], var put = snapshot["put"] as? [String: Any] else { continue }
            schemas["\(list).Item"] = itemSchema(demo, keys: itemKeys[list])
            schemas["\(list).Snapshot"] = snapshotSchema(list)
            get["operationId"] = "getSnapshot.\(list)"
            get["tags"] = [list]
            get["summary"] = "\(demo.title): the current snapshot, its items' data as \(list).Item"
            if var responses = get["responses"] as? [String: Any], var ok = responses["200"] as? [String: Any] {
                ok["content"] = ["application/json": ["schema": ["$ref": "#/components/schemas/\(list).Snapshot"]]]
                responses["200"] = ok
                get["responses"] = responses
            }
            // The concrete path has every method of the templated one (a client that matches it
            // first would otherwise find no PUT), the write as putSnapshot.
            put["operationId"] = "putSnapshot.\(list)"
            put["tags"] = [list]
            paths[snapshotPath(list: list)] = ["parameters": id, "get": get, "put": put, "x-list": list]
        }
    }

    /// The body of the list's example request (the one its page's "Script this session" panel
    /// shows), when it is `action`'s and names every required parameter.
    private static func example(_ demo: DemoDescriptor, _ action: ActionDescriptor) -> [String: Any]? {
        guard let example = demo.example, example.action == action.name,
              let body = try? JSONSerialization.jsonObject(with: Data(example.body.utf8)) as? [String: Any],
              action.parameters.allSatisfy({ !$0.required || body[$0.name] != nil }) else { return nil }
        return body
    }

    /// `Snapshot`, its items those of `list`.
    private static func snapshotSchema(_ list: String) -> [String: Any] {
        [
            "type": "object",
            "required": ["version", "sections"],
            "properties": [
                "version": ["type": "integer", "minimum": 0],
                "sections": [
                    "type": "array",
                    "items": [
                        "type": "object",
                        "required": ["id", "items"],
                        "properties": [
                            "id": ["type": "string"],
                            "items": ["type": "array", "items": ["$ref": "#/components/schemas/\(list).Item"]],
                        ] as [String: Any],
                    ] as [String: Any],
                ] as [String: Any],
            ] as [String: Any],
            "x-list": list,
        ]
    }

    /// An item of `demo`'s list: its id and its data, whose `keys` (when known) are listed; every
    /// value is text, and an item may lack a key or have another (an item a script put in the
    /// list that the list does not know has none).
    private static func itemSchema(_ demo: DemoDescriptor, keys: [String]?) -> [String: Any] {
        var data: [String: Any] = ["type": "object", "additionalProperties": ["type": "string"]]
        if let keys, !keys.isEmpty {
            var properties: [String: Any] = [:]
            for key in keys { properties[key] = ["type": "string"] }
            data["properties"] = properties
            data["description"] = "What the cell shows. The keys of a new session's items are listed; an item may lack one or have another"
        } else {
            data["description"] = "What the cell shows (its keys are the list's)"
        }
        return [
            "type": "object",
            "description": "An item of \(demo.title)",
            "required": ["id", "data"],
            "properties": ["id": ["type": "string"], "data": data] as [String: Any],
            "x-list": demo.name,
        ]
    }
}
