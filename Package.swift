// swift-tools-version:6.0
// DiffableWeb: UIKit's diffable data sources and compositional layouts, served to the browser.
//
// Layers point one way (see docs/architecture in README.md):
//   diffable-web → DiffableWeb → { DiffableDataSources, CompositionalLayout, MicroHTTP → CMicroHTTPD }
import PackageDescription

let package = Package(
    name: "DiffableWeb",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DiffableDataSources", targets: ["DiffableDataSources"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Pure Swift: snapshots, section snapshots, the diff, the data source.
        .target(
            name: "DiffableDataSources",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        .testTarget(name: "DiffableDataSourcesTests", dependencies: ["DiffableDataSources"]),
    ]
)
