import Foundation
@testable import ProcessMemory
import Testing

/// The limit is found in a folder laid out as `/proc` and `/sys` are (no real cgroup needed).
@Suite struct MemoryLimitTests {
    private func root(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memlimit-\(UUID().uuidString)").path
        for (path, text) in files {
            let url = URL(fileURLWithPath: folder + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    @Test func cgroupV2TakesTheTightestOfTheCgroupAndItsParents() throws {
        let folder = try root([
            "/proc/self/cgroup": "0::/system.slice/app.service\n",
            "/sys/fs/cgroup/memory.max": "max\n",
            "/sys/fs/cgroup/system.slice/memory.max": "1073741824\n",
            "/sys/fs/cgroup/system.slice/app.service/memory.max": "max\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = MemoryLimit.detect(root: folder, physicalBytes: 64 << 30)
        #expect(limit.source == .cgroup("/sys/fs/cgroup/system.slice/memory.max"))
        #expect(limit.bytes == (1 << 30) - MemoryLimit.margin(below: 1 << 30))
        #expect(limit.bytes == (1 << 30) - (128 << 20))
    }

    @Test func cgroupV1() throws {
        let folder = try root([
            "/proc/self/cgroup": "12:pids:/\n4:memory:/\n1:name=systemd:/\n",
            "/sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = MemoryLimit.detect(root: folder, physicalBytes: 64 << 30)
        #expect(limit.source == .cgroup("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
        #expect(limit.bytes == (512 << 20) - (64 << 20))
    }

    @Test func noCgroupLimitMeansHalfOfPhysicalLessAMargin() throws {
        let folder = try root([
            "/proc/self/cgroup": "0::/\n",
            "/sys/fs/cgroup/memory.max": "max\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = MemoryLimit.detect(root: folder, physicalBytes: 24 << 30)
        #expect(limit.source == .physical)
        #expect(limit.bytes == (12 << 30) - (512 << 20))
        // v1's "no limit" (a huge number) is no limit either.
        let v1 = try root(["/proc/self/cgroup": "4:memory:/\n", "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"])
        defer { try? FileManager.default.removeItem(atPath: v1) }
        #expect(MemoryLimit.detect(root: v1, physicalBytes: 2 << 30).source == .physical)
        #expect(MemoryLimit.detect(root: v1, physicalBytes: 2 << 30).bytes == (1 << 30) - (128 << 20))
    }

    @Test func aCgroupLimitPastPhysicalMemoryIsNoLimit() throws {
        let folder = try root([
            "/proc/self/cgroup": "0::/big\n",
            "/sys/fs/cgroup/big/memory.max": "\(64 << 30)\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = MemoryLimit.detect(root: folder, physicalBytes: 8 << 30)
        #expect(limit.source == .physical)
        #expect(limit.bytes == (4 << 30) - (512 << 20))
    }

    @Test func thisMachineHasALimit() {
        let limit = MemoryLimit.detect()
        #expect(limit.bytes >= 16 << 20)
        #expect(limit.bytes <= (ResidentMemory.physicalBytes ?? Int.max))
    }
}
