// swift-tools-version:6.0
// A list served by DiffableWeb from another package: one Swift file and one cell template.
import PackageDescription

let package = Package(
    name: "CustomList",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "DiffableWeb", path: "../..")],
    targets: [
        .executableTarget(name: "CustomList", dependencies: [.product(name: "DiffableWeb", package: "DiffableWeb")]),
    ]
)
