// swift-tools-version:6.0
// DiffableWeb: UIKit's diffable data sources and compositional layouts, served to the browser.
//
// Layers point one way:
//   diffable-web (executable) → DiffableWebCommands (flags, client) → DiffableWebDemos (the seven demos) → DiffableWeb
//   diffable-web-postgres (executable) → DiffableWebCommands, DiffableWebPostgres (postgres-nio) → DiffableWeb
//   DiffableWeb → { DiffableDataSources, CompositionalLayout, CSQLite, ProcessMemory → CMalloc, MicroHTTP → { CMicroHTTPD, CZlib } }
// DiffableDataSources and CompositionalLayout import nothing of ours; MicroHTTP knows nothing of lists;
// ProcessMemory (the process's memory limit and what sheds load near it) knows neither HTTP nor lists.
// `make run` builds only `diffable-web`; SwiftNIO and BoringSSL (for PostgreSQL) are built only for
// `diffable-web-postgres` (`swift build --product diffable-web-postgres`, scripts/cluster) and by
// `swift build --build-tests` (make test), which builds every target.
import PackageDescription

let package = Package(
    name: "DiffableWeb",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "diffable-web", targets: ["diffable-web"]),
        .executable(name: "diffable-web-postgres", targets: ["diffable-web-postgres"]),
        .library(name: "DiffableDataSources", targets: ["DiffableDataSources"]),
        .library(name: "CompositionalLayout", targets: ["CompositionalLayout"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "DiffableWeb", targets: ["DiffableWeb"]),
        .library(name: "DiffableWebDemos", targets: ["DiffableWebDemos"]),
        .library(name: "DiffableWebPostgres", targets: ["DiffableWebPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
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
        // glibc's malloc tuning (malloc.h): the server's allocator policy.
        .systemLibrary(name: "CMalloc"),
        // The process's memory: its limit (given, the cgroup's, or physical), RSS, and the
        // governor that sheds load in order as RSS nears the limit. Knows neither HTTP nor lists.
        .target(name: "ProcessMemory", dependencies: ["CMalloc"]),
        // Swift HTTP + server-sent events over libmicrohttpd; knows nothing of lists.
        .target(
            name: "MicroHTTP",
            dependencies: ["CMicroHTTPD", "CZlib", .product(name: "Logging", package: "swift-log"),
                           .product(name: "CoreMetrics", package: "swift-metrics"),
                           .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        // Sessions, the changeset stream, pages, the list protocols: composes the three above. Its long-lived
        // work runs as swift-service-lifecycle services (which bring swift-async-algorithms, not SwiftNIO).
        .target(
            name: "DiffableWeb",
            dependencies: [
                "DiffableDataSources", "CompositionalLayout", "MicroHTTP", "CSQLite", "CMalloc", "ProcessMemory",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/openapi.json"),
                        // The client and the base templates ship with the library (top-level `Public` and
                        // `templates` are links to these): a package depending on it serves them with no paths.
                        .copy("Resources/Public"), .copy("Resources/templates")]
        ),
        // The built-in demos, written on DiffableWeb's public API alone (the proof that it is
        // enough for a list of one's own), with their data.
        .target(
            name: "DiffableWebDemos",
            dependencies: ["DiffableWeb", .product(name: "Logging", package: "swift-log")],
            exclude: ["Resources/mountains-SOURCES.md"],
            resources: [.copy("Resources/mountains.csv"), .copy("Resources/templates")]
        ),
        // The shared store for several server processes: PostgreSQL through postgres-nio (its
        // own module, so that the web library and apps built on it do not build SwiftNIO).
        .target(
            name: "DiffableWebPostgres",
            dependencies: [
                "DiffableWeb",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The command line, shared by both executables: serve's flags, the client commands.
        .target(
            name: "DiffableWebCommands",
            dependencies: [
                "DiffableWeb", "DiffableWebDemos", "MicroHTTP", "ProcessMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The server with the demos, sessions in SQLite or in memory (`make run`).
        .executableTarget(
            name: "diffable-web",
            dependencies: [
                "DiffableWebCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The same with PostgreSQL (`--database-url`): several processes on one database.
        .executableTarget(
            name: "diffable-web-postgres",
            dependencies: [
                "DiffableWebCommands", "DiffableWeb", "DiffableWebPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
        .testTarget(name: "MicroHTTPTests", dependencies: [
            "MicroHTTP", "CMicroHTTPD", "CZlib", "HTTPTestSupport", "SeededRandom",
            .product(name: "MetricsTestKit", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        ]),
        .testTarget(name: "DiffableWebCommandsTests", dependencies: [
            "DiffableWebCommands", "DiffableWeb", "DiffableWebDemos", "HTTPTestSupport", .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .testTarget(name: "DiffableWebTests", dependencies: [
            "DiffableWeb", "DiffableWebDemos", "MicroHTTP", "DiffableDataSources", "HTTPTestSupport", "SeededRandom", "CMalloc",
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], exclude: ["Fixtures"]),
        .testTarget(name: "ProcessMemoryTests", dependencies: ["ProcessMemory"]),
        // The PostgreSQL store against a private PostgreSQL (initdb in a temporary directory).
        .testTarget(name: "DiffableWebPostgresTests", dependencies: [
            "DiffableWebPostgres", "DiffableWeb", "DiffableWebDemos", "MicroHTTP", "HTTPTestSupport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
    ]
)
