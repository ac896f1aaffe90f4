/// The demos `diffable-web` serves, in the order its index lists them: the one table to edit
/// when a demo is added to this package. (Another package passes its own descriptors in
/// ``WebConfiguration/demos``; see `Examples/CustomList`.)
public enum BuiltInDemos {
    /// - Parameter mountainCount: scale the mountain catalog to this many entries (load tests);
    ///   `nil` serves the bundled data set.
    /// - Throws: ``CatalogError`` when the bundled data does not load.
    public static func table(mountainCount: Int? = nil) throws -> [DemoDescriptor] {
        var catalog = try MountainCatalog.bundled()
        if let mountainCount { catalog = catalog.scaled(to: mountainCount) }
        return [
            MountainsDemo.descriptor(catalog: catalog),
            NumbersDemo.descriptor,
        ]
    }
}
