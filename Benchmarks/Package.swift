// swift-tools-version:6.0
// Release-mode benchmarks, kept out of the main package so CI's build stays light.
// Run with `make bench` (or `make bench-core`, `bench-layout`, `bench-http`).
import PackageDescription

let package = Package(
    name: "DiffableWebBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DiffableWeb", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [.product(name: "DiffableDataSources", package: "DiffableWeb")]
        ),
        .executableTarget(
            name: "LayoutBenchmarks",
            dependencies: [.product(name: "CompositionalLayout", package: "DiffableWeb")]
        ),
        .executableTarget(
            name: "HTTPBenchServer",
            dependencies: [.product(name: "MicroHTTP", package: "DiffableWeb")]
        ),
        // zlib for KeystrokeFloor (the main package's CZlib is not a product).
        .systemLibrary(name: "CZlibFloor", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The least a keystroke must do (issue 37): `make bench-floor`.
        .executableTarget(name: "KeystrokeFloor", dependencies: ["CZlibFloor"]),
    ]
)
