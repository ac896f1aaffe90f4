import CMalloc
import Testing
@testable import DiffableWeb

#if canImport(Glibc)
import Glibc
#endif

/// Issue 22 (session 11): glibc raised its threshold for mapping a block on its own to the
/// largest block freed so far; after the first ~1 MiB body, such blocks came from the heap, and
/// one session's appends grew RSS by 27 MB for a 16 MiB budget. The server fixes the threshold.
@Suite("Allocator policy: a large block is mapped on its own, even after larger ones were freed")
struct AllocatorPolicyTests {
    /// In a process of its own: glibc serves even a large block from the heap when the heap has
    /// room for it, as this test process's heap has after the other suites.
    @Test("after a 4 MiB block is freed, a 600 KiB block is still mapped (and given back when freed)")
    func largeBlocksStayMapped() async {
        await #expect(processExitsWith: .success) {
            AllocatorPolicy.apply()
            // Freed, a mapped block of 4 MiB would raise glibc's dynamic threshold past 600 KiB.
            guard let big = malloc(4 << 20) else { exit(2) }
            memset(big, 1, 4 << 20)
            free(big)
            guard let block = malloc(600 << 10), let small = malloc(64 << 10) else { exit(2) }
            // Below the threshold: from the heap.
            exit(cmalloc_is_mapped_block(block) == 1 && cmalloc_is_mapped_block(small) == 0 ? 0 : 1)
        }
    }
}
