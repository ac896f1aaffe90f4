#if canImport(Glibc)
import Glibc
#endif

/// How much memory the process may use: the budget every part of the server is a share of.
///
/// Given (`--memory-limit`), or found: the memory limit of the process's cgroup (v2
/// `memory.max`, the tightest of the cgroup and its parents; v1 `memory.limit_in_bytes`), less
/// a margin for what the limit does not see coming (the kernel's socket buffers are charged to
/// the cgroup too, and the runtime's own growth); with no cgroup limit below physical memory,
/// half of physical memory, less the same margin.
/// ```swift
/// let limit = MemoryLimit.detect()   // e.g. 11.7 GiB (half of 23.4 GiB physical, less 64 MiB)
/// print(limit)                       // "11.7 GiB (half of physical memory, less a margin)"
/// ```
public struct MemoryLimit: Sendable, Equatable, CustomStringConvertible {
    public enum Source: Sendable, Equatable {
        /// Given on the command line (or by an embedding app).
        case given
        /// The cgroup's limit, from this file.
        case cgroup(String)
        /// Half of physical memory.
        case physical
    }

    public let bytes: Int
    public let source: Source

    public init(bytes: Int, source: Source = .given) {
        self.bytes = max(0, bytes)
        self.source = source
    }

    /// The margin kept below a found limit: an eighth of it, between 32 MiB and 512 MiB.
    public static func margin(below bytes: Int) -> Int {
        min(512 << 20, max(32 << 20, bytes / 8))
    }

    /// The limit of this process, as described above. `root` is where `/proc` and `/sys` are
    /// read from (tests give a folder of their own).
    public static func detect(root: String = "", physicalBytes: Int? = ResidentMemory.physicalBytes) -> MemoryLimit {
        let physical = physicalBytes ?? (1 << 30)
        // A cgroup may allow more than the machine has: then the machine is the bound.
        if let (bytes, file) = cgroupLimit(root: root), bytes < physical {
            return MemoryLimit(bytes: max(bytes / 2, bytes - margin(below: bytes)), source: .cgroup(file))
        }
        let half = physical / 2
        return MemoryLimit(bytes: max(half / 2, half - margin(below: half)), source: .physical)
    }

    /// The tightest limit of the process's cgroup and its parents, with the file it came from.
    static func cgroupLimit(root: String) -> (Int, String)? {
        guard let membership = readText(root + "/proc/self/cgroup") else { return nil }
        var best: (Int, String)?
        func consider(_ file: String) {
            guard let text = readText(file)?.split(whereSeparator: \.isWhitespace).first,
                  let value = Int(text), value > 0, value < 1 << 60 else { return }  // "max", or v1's "no limit"
            if let (known, _) = best, known <= value { return }
            best = (value, String(file.dropFirst(root.count)))
        }
        for line in membership.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let path = String(parts[2])
            if parts[0] == "0" && parts[1].isEmpty {
                // cgroup v2: the process's cgroup and every parent up to the root.
                var components = path.split(separator: "/").map(String.init)
                while true {
                    let folder = components.isEmpty ? "" : "/" + components.joined(separator: "/")
                    consider(root + "/sys/fs/cgroup" + folder + "/memory.max")
                    if components.isEmpty { break }
                    components.removeLast()
                }
            } else if parts[1].split(separator: ",").contains("memory") {
                // cgroup v1: the memory controller's hierarchy (inside a container, its root).
                consider(root + "/sys/fs/cgroup/memory" + (path == "/" ? "" : path) + "/memory.limit_in_bytes")
                consider(root + "/sys/fs/cgroup/memory/memory.limit_in_bytes")
            }
        }
        return best
    }

    /// A small text file's contents (`/proc` and `/sys` files report a size of 0: read to the end).
    static func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String {
        switch source {
        case .given: MemorySize.format(bytes)
        case .cgroup(let file): "\(MemorySize.format(bytes)) (the cgroup's limit in \(file), less a margin)"
        case .physical: "\(MemorySize.format(bytes)) (half of physical memory, less a margin)"
        }
    }
}
