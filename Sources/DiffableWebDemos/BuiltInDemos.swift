import DiffableWeb
import Foundation
import Logging

/// The demos `diffable-web` serves, in the order its index lists them: the one table to edit
/// when a demo is added to this package. (Another package passes its own descriptors in
/// ``WebConfiguration/demos``; see `Examples/CustomList`.)
public enum BuiltInDemos {
    /// What the command line can change about the built-in demos.
    public struct Options: Sendable, Hashable {
        /// Scale the mountain catalog to this many entries (load tests); `nil`: the bundled set.
        public var mountainCount: Int?
        /// A folder of JPEG, PNG and WebP files for the photo grid; `nil`: generated landscapes.
        public var photosDirectory: String?
        /// The simulated load time of a photo's image, in milliseconds.
        public var imageLatency: ClosedRange<Int> = 50...400
        /// The simulated load time of a Destinations post's picture, in milliseconds.
        public var assetLatency: ClosedRange<Int> = 100...800
        /// Milliseconds between the URL publisher's batches.
        public var publishInterval: ClosedRange<Int> = 1_000...3_000
        public init() {}
    }

    /// - Throws: ``CatalogError`` when the bundled data does not load; a file-system error when
    ///   the photos folder cannot be listed.
    public static func table(_ options: Options = Options(), logger: Logger = Logger(label: "DiffableWeb")) throws -> [DemoDescriptor] {
        // Built once per process and options: the descriptors hold only shared, immutable data
        // (catalogs, caches that are pure functions of it), and every app of a test run uses them.
        if options.photosDirectory == nil, let built = tables.value(for: options) { return built }
        let table = try makeTable(options, logger: logger)
        if options.photosDirectory == nil { tables.insert(table, for: options) }
        return table
    }

    private static let tables = SharedCache<Options, [DemoDescriptor]>(entryLimit: 8)

    private static func makeTable(_ options: Options, logger: Logger) throws -> [DemoDescriptor] {
        let bundled = try MountainCatalog.bundled()  // parsed once per process
        let catalog = options.mountainCount.map { bundled.scaled(to: $0) } ?? bundled
        let photos = try options.photosDirectory.map { try PhotoLibrary.folder($0, logger: logger) }
            ?? PhotoLibrary.generated(captions: bundled.mountains.prefix(300).map(\.name))
        return Self.introduced([
            try Mountains.descriptor(sharing: [catalog]),
            try Numbers.descriptor(),
            try Photos.descriptor(library: photos, imageLatency: options.imageLatency),
            try URLStream.descriptor(urls: URLStream.builtInURLs(photos: photos),
                                     interval: options.publishInterval),
            try Destinations.descriptor(places: bundled.mountains.prefix(200).map { ($0.name, $0.height) },
                                        assetLatency: options.assetLatency),
            try Explore.descriptor(sharing: [Explore.Content(catalog: bundled)]),
            try Outline.descriptor(catalog: bundled),
            try InsertionSort.descriptor(),
            try ListAppearances.descriptor(),
            try EmojiExplorer.descriptor(),
            try Editing.descriptor(),
            try WiFiSettings.descriptor(),
        ])
    }

    /// The demos' own templates (their cells and pages): the package's source folder when it is
    /// there (a build of this repository: edits show without a rebuild), else as they ship with
    /// the module (SwiftPM resources).
    public static var templatesDirectory: String? {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/templates")
        if FileManager.default.fileExists(atPath: source.path) { return source.path }
        return Bundle.module.url(forResource: "templates", withExtension: nil)?.path
    }

    /// The table with only the catalog scaled (tests and benchmarks).
    public static func table(mountainCount: Int?) throws -> [DemoDescriptor] {
        var options = Options()
        options.mountainCount = mountainCount
        return try table(options)
    }
}

/// A list of this module: its templates ship with it (``BuiltInDemos/templatesDirectory``).
protocol BuiltInList: WebList {}

extension BuiltInList {
    public static var templatesDirectory: String? { BuiltInDemos.templatesDirectory }
}
