#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory (RSS), as the kernel counts it: what the process really pays
/// for, whatever any count of ours says.
///
/// Read from `/proc/self/statm` (its second field, in pages): one `open`, `read` and `close`,
/// about 3 µs, no allocation beyond a small buffer on the stack.
public enum ResidentMemory {
    /// Resident bytes now, or `nil` where `/proc` cannot be read.
    public static func bytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let count = read(descriptor, base, buffer.count)
            guard count > 0 else { return nil }
            // "size resident shared text lib data dt", in pages.
            var field = 0
            var value = 0
            for byte in UnsafeBufferPointer(start: base, count: count) {
                if byte == 32 {
                    if field == 1 { break }
                    field += 1
                    value = 0
                } else if byte >= 48 && byte <= 57 {
                    value = value * 10 + Int(byte - 48)
                } else if byte == 10 {
                    break
                }
            }
            guard field == 1 else { return nil }
            return value * pageSize
        }
    }

    /// The kernel's page size.
    public static let pageSize: Int = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Physical memory of the machine, in bytes (`nil` where the system does not say).
    public static var physicalBytes: Int? {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        return pages > 0 ? pages * pageSize : nil
    }
}
