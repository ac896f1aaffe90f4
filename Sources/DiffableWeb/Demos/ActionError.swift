import DiffableDataSources

/// Why an action was refused.
public enum ActionError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownAction(String)
    case missingParameter(String)
    case invalidParameter(String, String)
    /// Well-formed, but refused (422): `code` names the rule, `message` the culprit.
    case unprocessable(code: String, message: String)
    case snapshot(SnapshotError)

    public var code: String {
        switch self {
        case .unknownAction: "unknown_action"
        case .missingParameter: "missing_parameter"
        case .invalidParameter: "invalid_parameter"
        case .unprocessable(let code, _): code
        case .snapshot(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .unknownAction(let name): "Unknown action: \(name)"
        case .missingParameter(let name): "Missing parameter: \(name)"
        case .invalidParameter(let name, let why): "Invalid parameter \(name): \(why)"
        case .unprocessable(_, let message): message
        case .snapshot(let error): error.description
        }
    }
}
