import ArgumentParser
import DiffableWeb
import Foundation

/// Finds `Public/` and `templates/` when no directory is given: next to the working
/// directory, or in the package that built this executable (`.build/<config>/diffable-web`),
/// where edits show without a rebuild; else as the package ships them (its resources).
public enum PackageDirectories {
    public static func find(_ name: String) throws -> String {
        let fileManager = FileManager.default
        var candidates = [fileManager.currentDirectoryPath + "/" + name]
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(name).path)
            directory.deleteLastPathComponent()
        }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue { return candidate }
        }
        // As the package ships them (an executable built elsewhere, or installed).
        if let bundled = name == "Public" ? WebConfiguration.bundledPublicDirectory : WebConfiguration.bundledTemplatesDirectory {
            return bundled
        }
        throw ValidationError("Cannot find the \(name)/ directory; pass --\(name == "Public" ? "public-dir" : "templates-dir")")
    }
}
