/// A request's action (its name, and its parameters as strings from JSON or a form) as the
/// list's typed `Action`, checked against the action's schema first: an unknown name is
/// `404 unknown_action`, a missing required parameter `400 missing_parameter`, a value of the
/// wrong type or not among its choices `400 invalid_parameter`, each naming the parameter.
enum ActionDecoding {
    static func decode<Action: WebListAction>(_ type: Action.Type, name: String, parameters: ActionParameters,
                                              schema: ActionSchema) throws(ActionError) -> Action {
        guard let action = schema.action(named: name) else { throw .unknownAction(name) }
        var values: [String: ActionValue] = [:]
        for parameter in action.parameters {
            guard let value = try Self.value(parameter, in: parameters) else {
                if parameter.required { throw .missingParameter(parameter.name) }
                continue
            }
            values[parameter.name] = value
        }
        do {
            return try Action(from: ActionCoding.Decoder(.values(action: name, parameters: values)))
        } catch let error as ActionError {
            throw error
        } catch {
            throw .unprocessable(code: "invalid_action", message: "\(name): \(error)")
        }
    }

    /// One parameter's value, typed; `nil` when absent (an empty form field is absent).
    private static func value(_ parameter: ActionSchema.Parameter, in parameters: ActionParameters) throws(ActionError) -> ActionValue? {
        if parameter.type == .array {
            if let list = parameters.lists[parameter.name] { return .array(list) }
            guard parameters.values[parameter.name] != nil else { return nil }
            return .array(try parameters.requiredStrings(parameter.name))
        }
        guard let text = parameters.values[parameter.name] else { return nil }
        // Trimmed only for what is parsed: a string is taken as sent (and trimming costs on a keystroke).
        let trimmed = parameter.type == .string ? text : text.trimmingCharacters(in: .whitespaces)
        switch parameter.type {
        case .string:
            return .string(text)
        case .integer:
            if trimmed.isEmpty { return nil }
            guard let number = Int(trimmed) else { throw .invalidParameter(parameter.name, "must be an integer") }
            return .integer(number)
        case .number:
            if trimmed.isEmpty { return nil }
            guard let number = Double(trimmed), number.isFinite else { throw .invalidParameter(parameter.name, "must be a number") }
            return .number(number)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "on", "1", "yes": return .boolean(true)
            case "false", "off", "0", "no": return .boolean(false)
            case "": return nil
            default: throw .invalidParameter(parameter.name, "must be true or false")
            }
        case .array:
            return nil
        }
    }
}
