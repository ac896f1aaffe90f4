/// One action of a demo and its parameters (for `GET …/actions` and the docs).
public struct ActionDescriptor: Sendable, Codable, Equatable {
    public struct Parameter: Sendable, Codable, Equatable {
        public var name: String
        public var type: String
        public var required: Bool
        public var description: String
        /// The values it takes, when they are a fixed set (the generic page shows a menu).
        public var choices: [String]?
        /// A position in the list (0-based here, as in the API): a page's form shows it counting
        /// from 1, as people count. Not part of the API's description.
        public var position: Bool = false
        public init(name: String, type: String, required: Bool, description: String, choices: [String]? = nil, position: Bool = false) {
            self.name = name; self.type = type; self.required = required; self.description = description
            self.choices = choices
            self.position = position
        }
        private enum CodingKeys: String, CodingKey { case name, type, required, description, choices }
    }
    public var name: String
    public var description: String
    public var parameters: [Parameter]
    public init(name: String, description: String, parameters: [Parameter] = []) {
        self.name = name; self.description = description; self.parameters = parameters
    }

    private enum CodingKeys: String, CodingKey { case name, description, parameters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name),
                  description: try container.decode(String.self, forKey: .description),
                  parameters: try container.decode([Parameter].self, forKey: .parameters))
    }

    /// The label of the action's button on a page: `removeLast` → “Remove last”.
    public var buttonTitle: String {
        var words: [String] = []
        for character in name {
            if character.isUppercase || words.isEmpty { words.append(String(character).lowercased()) } else { words[words.count - 1].append(character) }
        }
        guard let first = words.first else { return name }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }
}
