import CMicroHTTPD

/// Makes freed memory return to the kernel, so that the bytes the server counts (event stream
/// buffers against their budget) are the bytes the process holds.
///
/// glibc serves an allocation of at least its mmap threshold (128 KiB) as a mapping of its own,
/// unmapped when freed, but by default it raises the threshold to the size of each such block
/// freed (up to 32 MiB). After the first large stream buffer was freed, every later one came
/// from the heap, and memory freed there stayed in the process: 500 event streams that nobody
/// read took RSS from 48 to 690 MB (and it stayed at 514 MB once they were cut) while the
/// stream budget counted at most 256 MiB. With the threshold fixed, the same run peaked at
/// 307 MB and fell back to 47 MB. Setting it (`mallopt(M_MMAP_THRESHOLD)`) also turns off
/// glibc's dynamic trim threshold. Called when a server is made; it is process-wide and
/// idempotent.
enum ProcessMemory {
    /// Allocations of this many bytes or more are mappings of their own.
    static let mmapThreshold = 128 * 1024

    private static let fixed: Bool = {
        cmhd_fix_mmap_threshold(Int32(mmapThreshold)) == 1
    }()

    /// Fixes glibc's mmap threshold (once per process). Returns whether it is fixed.
    @discardableResult
    static func returnFreedMemory() -> Bool { fixed }
}
