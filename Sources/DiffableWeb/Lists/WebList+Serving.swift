import Foundation

extension WebList {
    /// What the web layer serves of this list: its name, title, templates and actions (from
    /// ``ActionSchema``, and the framework's `reorder` for a ``Reorderable`` list), each
    /// session's list made from `init()` with `sharing`'s values in reach of its ``Shared``
    /// properties (found by type).
    /// - Throws: ``WebListError`` when the actions cannot be read, a parameter has a type the
    ///   API cannot carry, a shared value is missing, or the initial snapshot repeats an identifier.
    public static func descriptor(sharing: [any Sendable] = []) throws(WebListError) -> DemoDescriptor {
        let schema = try ActionSchema.of(Action.self)
        let registration = ListRegistration<Self>(schema: schema, shared: SharedValues(values: sharing))
        let sample = registration.makeList()
        for child in Mirror(reflecting: sample).children {
            if let shared = child.value as? any SharedAvailability, !shared.isAvailable {
                throw .missingSharedValue("\(name): \(child.label.map { String($0.drop { $0 == "_" }) } ?? "a property") (\(type(of: child.value)))")
            }
        }
        do {
            _ = try WireIdentifiers.wire(sample.initialSnapshot())
        } catch {
            throw .invalidInitialSnapshot("\(name): \(error)")
        }
        let descriptions = Action.descriptions
        var actions = schema.actions.map { action in
            ActionDescriptor(name: action.name,
                             description: descriptions[action.name] ?? ActionDescriptor(name: action.name, description: "").buttonTitle,
                             parameters: action.parameters.map { parameter in
                                 .init(name: parameter.name, type: parameter.type.rawValue, required: parameter.required,
                                       description: descriptions["\(action.name).\(parameter.name)"] ?? parameter.name,
                                       choices: parameter.choices, position: parameter.position)
                             })
        }
        if registration.reorderable { actions.append(ReorderAction.descriptor) }
        var descriptor = DemoDescriptor(name: name, title: title, summary: summary, pageTemplate: pageTemplate, cellTemplates: cellTemplates,
                              actions: actions, pageQuery: registration.derived?.pageQuery,
                              assets: (sample as? any ListAssets)?.assets,
                              reorderable: registration.reorderable,
                              make: { WebListDemo<Self>(registration: registration) })
        descriptor.templatesDirectory = templatesDirectory
        return descriptor
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
