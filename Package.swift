// swift-tools-version:6.0
// DiffableWeb: UIKit's diffable data sources and compositional layouts, served to the browser.
//
// Layers point one way:
//   diffable-web (executable) → DiffableWebPostgres (postgres-nio) → DiffableWeb
//   DiffableWeb → { DiffableDataSources, CompositionalLayout, CSQLite, MicroHTTP → { CMicroHTTPD, CZlib } }
// DiffableDataSources and CompositionalLayout import nothing of ours; MicroHTTP knows nothing of lists.
import PackageDescription

let package = Package(
    name: "DiffableWeb",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "diffable-web", targets: ["diffable-web"]),
        .library(name: "DiffableDataSources", targets: ["DiffableDataSources"]),
        .library(name: "CompositionalLayout", targets: ["CompositionalLayout"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "DiffableWeb", targets: ["DiffableWeb"]),
        .library(name: "DiffableWebPostgres", targets: ["DiffableWebPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Pure Swift: snapshots, section snapshots, the diff, the data source.
        .target(
            name: "DiffableDataSources",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // Pure Swift: layout description -> frames.
        .target(name: "CompositionalLayout"),
        // libmicrohttpd, as Debian ships it.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // zlib, as Debian ships it: gzip for event streams.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // SQLite, as Debian ships it: the embedded store that keeps sessions across restarts.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Swift HTTP + server-sent events over libmicrohttpd; knows nothing of lists.
        .target(
            name: "MicroHTTP",
            dependencies: ["CMicroHTTPD", "CZlib", .product(name: "Logging", package: "swift-log")]
        ),
        // Sessions, the changeset stream, pages, demos: composes the three above.
        .target(
            name: "DiffableWeb",
            dependencies: [
                "DiffableDataSources", "CompositionalLayout", "MicroHTTP", "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            exclude: ["Resources/mountains-SOURCES.md"],
            resources: [.copy("Resources/mountains.csv"), .copy("Resources/openapi.json")]
        ),
        // The shared store for several server processes: PostgreSQL through postgres-nio (its
        // own module, so that the web library and apps built on it do not build SwiftNIO).
        .target(
            name: "DiffableWebPostgres",
            dependencies: [
                "DiffableWeb",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The command line: parses flags, starts the server with the demos.
        .executableTarget(
            name: "diffable-web",
            dependencies: [
                "DiffableWeb", "DiffableWebPostgres", "MicroHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A seeded generator for the property tests.
        .target(name: "SeededRandom", path: "Tests/SeededRandom"),
        .testTarget(name: "DiffableDataSourcesTests", dependencies: ["DiffableDataSources", "SeededRandom"]),
        .testTarget(name: "CompositionalLayoutTests", dependencies: ["CompositionalLayout", "SeededRandom"]),
        // Plain-socket HTTP and SSE clients shared by the server tests.
        .target(
            name: "HTTPTestSupport",
            dependencies: ["MicroHTTP", .product(name: "Logging", package: "swift-log")],
            path: "Tests/HTTPTestSupport"
        ),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "CZlib", "HTTPTestSupport", "SeededRandom"]),
        .testTarget(name: "DiffableWebTests", dependencies: ["DiffableWeb", "MicroHTTP", "DiffableDataSources", "HTTPTestSupport", "SeededRandom"]),
    ]
)
