import Foundation

extension WebList {
    /// What the web layer serves of this list: its name, title, cell template and actions
    /// (from ``ActionSchema``), each session's list made from `init()`.
    /// - Throws: ``WebListError`` when the actions cannot be read, a parameter has a type the
    ///   API cannot carry, or the initial snapshot repeats an identifier.
    public static func descriptor() throws(WebListError) -> DemoDescriptor {
        let schema = try ActionSchema.of(Action.self)
        do {
            _ = try WebListDemo<Self>.wire(Self().initialSnapshot())
        } catch {
            throw .invalidInitialSnapshot("\(name): \(error)")
        }
        let actions = schema.actions.map { action in
            ActionDescriptor(name: action.name, description: ActionDescriptor(name: action.name, description: "").buttonTitle,
                             parameters: action.parameters.map { parameter in
                                 .init(name: parameter.name, type: parameter.type.rawValue, required: parameter.required,
                                       description: parameter.name, choices: parameter.choices)
                             })
        }
        return DemoDescriptor(name: name, title: title, summary: summary, cellTemplates: [cellTemplate], actions: actions,
                              make: { WebListDemo<Self>(schema: schema) })
    }
}

extension WebConfiguration {
    /// A configuration serving `lists` (``WebList`` types): the framework's client and base
    /// templates as they ship with the package (``bundledPublicDirectory``, unless given), the
    /// lists' own templates from `listTemplates`, and sessions saved in SQLite under
    /// `stateDirectory` (`nil`: memory only), as `diffable-web` keeps them: a restart keeps every
    /// list and its state.
    /// - Throws: ``WebListError`` for a list that cannot be served; ``ConfigurationError`` when
    ///   the package's resources are missing and no directory was given.
    public init(lists: [any WebList.Type], listTemplates: [String] = ["templates"], stateDirectory: String? = ".state",
                publicDirectory: String? = nil, templatesDirectory: String? = nil) throws {
        var descriptors: [DemoDescriptor] = []
        for list in lists { descriptors.append(try list.descriptor()) }
        guard let publicDirectory = publicDirectory ?? Self.bundledPublicDirectory else { throw ConfigurationError.missingResource("Public") }
        guard let templatesDirectory = templatesDirectory ?? Self.bundledTemplatesDirectory else {
            throw ConfigurationError.missingResource("templates")
        }
        self.init(publicDirectory: publicDirectory, templatesDirectory: templatesDirectory, demos: descriptors)
        extraTemplatesDirectories = listTemplates
        self.stateDirectory = stateDirectory
    }

    /// The framework's static files (the client's scripts and styles) as they ship with the
    /// package (SwiftPM resources), or `nil` if the bundle is missing.
    public static var bundledPublicDirectory: String? { Bundle.module.url(forResource: "Public", withExtension: nil)?.path }

    /// The framework's base templates (pages, the generic list page, its cells) as they ship
    /// with the package.
    public static var bundledTemplatesDirectory: String? { Bundle.module.url(forResource: "templates", withExtension: nil)?.path }
}

extension WebApp {
    /// Serves `lists` until SIGINT or SIGTERM, with everything else as it ships:
    /// `try await WebApp.serve(lists: [Groceries.self])`.
    public static func serve(lists: [any WebList.Type], host: String = "127.0.0.1", port: Int = 8080) async throws {
        try await serve(try WebConfiguration(lists: lists), host: host, port: port)
    }
}
