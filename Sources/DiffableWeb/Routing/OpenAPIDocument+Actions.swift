import Foundation

// An action's request body as JSON Schema: its parameters by name, each with its type, whether
// it is required, its choices and its description, so that a client generated from the document
// knows what `POST …/demos/<list>/actions/<action>` takes.
//
// The schema is what the API accepts, no less: the API reads a body as a form reads its fields
// (`ActionParameters`: every value becomes text), so a parameter also takes the spellings that
// read as the same text: an integer as its digits in a string (the command line client sends every
// value so), a string as a number or a boolean, a list as one item per line, an optional
// parameter as `null` (the same as leaving it out). Each spelling is an `anyOf` branch after the
// parameter's own type, described; a value the schema refuses, the API refuses (400), which is
// what schemathesis's negative checks hold it to.

extension OpenAPIDocument {
    /// The JSON Schema of `action`'s body.
    /// - Complexity: O(parameters · choices).
    static func inputSchema(of action: ActionDescriptor) -> [String: Any] {
        var properties: [String: Any] = [:]
        for parameter in action.parameters { properties[parameter.name] = schema(of: parameter) }
        var schema: [String: Any] = [
            "type": "object",
            "description": action.parameters.isEmpty
                ? "\(action.name) takes no parameter: send no body, or an object (its values are ignored)"
                : "The parameters of \(action.name)",
            "properties": properties,
            // A name the action does not take is ignored, but only as a scalar: the body is read as
            // flat (an array is a 400 but for a parameter of type array, an object always is).
            "additionalProperties": ["type": ["string", "number", "boolean", "null"],
                                     "description": "Not a parameter of this action: ignored"] as [String: Any],
        ]
        let required = action.parameters.filter(\.required).map(\.name)
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    /// One parameter: its own type first, then the other spellings the API reads as the same value.
    static func schema(of parameter: ActionDescriptor.Parameter) -> [String: Any] {
        var own: [String: Any]
        var spellings: [[String: Any]] = []
        switch parameter.type {
        case "string":
            if let choices = parameter.choices, !choices.isEmpty {
                own = ["type": "string", "enum": choices]
                let scalars = choices.compactMap(jsonScalar(spelling:))
                if !scalars.isEmpty {
                    spellings.append(["enum": scalars, "description": "The same choice as a JSON number or boolean (read as its text)"])
                }
            } else {
                own = ["type": "string"]
                spellings.append(["type": ["number", "boolean"], "description": "Read as its JSON text (5 as \"5\")"])
            }
        case "integer":
            own = ["type": "integer"]
            if parameter.position { own["minimum"] = 0 }
            spellings.append(["type": "string", "pattern": integerText, "description": "The integer as text, as a form sends it (\"5\")"])
        case "number":
            own = ["type": "number"]
            spellings.append(["type": "string", "description": "The number as text, as a form sends it (\"2.5\")"])
        case "boolean":
            own = ["type": "boolean"]
            spellings.append(["enum": [0, 1], "description": "1 for true, 0 for false"])
            spellings.append(["type": "string", "pattern": booleanText,
                              "description": "As a form sends it: true, on, yes or 1; false, off, no or 0 (any case)"])
        case "array":
            own = ["type": "array", "items": ["type": "string"]]
            spellings.append(["type": ["string", "number", "boolean"], "description": "One item per line, as a form's text area sends it"])
        default:
            // A type the API has no reading for: whatever scalar is sent reaches the list as text.
            own = ["type": ["string", "number", "boolean"]]
        }
        if !parameter.required { spellings.append(["type": "null", "description": "The same as leaving it out"]) }
        guard !spellings.isEmpty else {
            own["description"] = parameter.description
            return own
        }
        return ["description": parameter.description, "anyOf": [own] + spellings]
    }

    /// An integer as a form's text: its digits, signed, blanks around (an empty text is absent to a
    /// typed list, and refused by a built-in one).
    static let integerText = #"^\s*[+-]?[0-9]*\s*$"#

    /// A boolean as a form's text (``ActionDecoding``), in any case; blank is absent.
    static let booleanText = #"^\s*(?:[Tt][Rr][Uu][Ee]|[Oo][Nn]|[Yy][Ee][Ss]|1|[Ff][Aa][Ll][Ss][Ee]|[Oo][Ff][Ff]|[Nn][Oo]|0)?\s*$"#

    /// The JSON number or boolean whose text (as ``ActionParameters`` makes it) is `choice`, if any.
    private static func jsonScalar(spelling choice: String) -> Any? {
        if choice == "true" { return true }
        if choice == "false" { return false }
        if let integer = Int(choice), String(integer) == choice { return integer }
        if let number = Double(choice), number.isFinite, String(number) == choice { return number }
        return nil
    }
}
