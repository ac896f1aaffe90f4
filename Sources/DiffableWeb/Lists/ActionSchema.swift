/// What a ``WebList``'s actions are, read from its `Action` type: each case's name, and its
/// parameters' names, types and whether they are required. Found once, when the app starts,
/// by decoding `Action` with a decoder that records what it is asked for
/// (`ActionCoding`): the action names of the API, the forms and the OpenAPI document are
/// the enum's cases, and a parameter is what a case's associated value is named and typed.
///
/// ```swift
/// enum Action: WebListAction {
///     case add(item: String)          // "add", {"item": string, required}
///     case append(count: Int?)        // "append", {"count": integer, optional}
///     case sortByAisle                // "sortByAisle", no parameters
/// }
/// ```
public struct ActionSchema: Sendable, Equatable {
    public enum ParameterType: String, Sendable, Equatable {
        case string, integer, number, boolean, array
    }

    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var type: ParameterType
        public var required: Bool
        /// The values a string parameter takes, when its type is a `CaseIterable` enum of
        /// strings (a page shows a menu).
        public var choices: [String]?
        /// Whether it is a ``ItemPosition`` (an integer counted from 0; a page's form counts from 1).
        public var position = false
    }

    public struct Action: Sendable, Equatable {
        public var name: String
        public var parameters: [Parameter]
    }

    public var actions: [Action]

    /// The schema of `type`.
    /// - Throws: ``WebListError/unsupportedAction(_:)`` naming what cannot be an action (a
    ///   type that is not an enum of cases, a parameter of a type the API has no form for).
    public static func of<A: Decodable>(_ type: A.Type) throws(WebListError) -> ActionSchema {
        let probe = ActionCoding.Probe()
        _ = try? A(from: ActionCoding.Decoder(.probing(probe)))
        guard let names = probe.caseNames, !names.isEmpty else {
            throw .unsupportedAction("\(A.self) is not an enum whose cases are the actions (synthesized Decodable)")
        }
        var actions: [Action] = []
        for name in names {
            probe.selected = name
            probe.parameters = []
            do {
                _ = try A(from: ActionCoding.Decoder(.probing(probe)))
            } catch let error as WebListError {
                throw error
            } catch {
                throw .unsupportedAction("\(A.self).\(name): \(error)")
            }
            actions.append(Action(name: name, parameters: probe.parameters))
        }
        return ActionSchema(actions: actions)
    }

    public func action(named name: String) -> Action? { actions.first { $0.name == name } }
}

/// Why a ``WebList`` cannot be served (found when the app starts).
public enum WebListError: Error, Equatable, CustomStringConvertible {
    case unsupportedAction(String)
    case invalidInitialSnapshot(String)
    /// A ``Shared`` property whose value the app did not pass to ``WebList/descriptor(sharing:)``.
    case missingSharedValue(String)

    public var description: String {
        switch self {
        case .unsupportedAction(let why): "Unsupported action type: \(why)"
        case .invalidInitialSnapshot(let why): "The initial snapshot is not valid: \(why)"
        case .missingSharedValue(let what): "No shared value was given for \(what): pass it to descriptor(sharing:)"
        }
    }
}
