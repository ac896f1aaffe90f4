import CMalloc
import Testing
@testable import DiffableWeb

#if canImport(Glibc)
import Glibc
#endif

/// Issue 22 (session 11): glibc raised its threshold for mapping a block on its own to the
/// largest block freed so far; after the first ~1 MiB body, such blocks came from the heap, and
/// one session's appends grew RSS by 28 MB for a 16 MiB budget. The server fixes the threshold.
@Suite("Allocator policy: a large block is mapped on its own, even after larger ones were freed")
struct AllocatorPolicyTests {
    @Test("after a 4 MiB block is freed, a 600 KiB block is still mapped (and given back when freed)")
    func largeBlocksStayMapped() throws {
        AllocatorPolicy.apply()
        // Freed, a mapped block of 4 MiB would raise glibc's dynamic threshold past 600 KiB.
        let big = try #require(malloc(4 << 20))
        memset(big, 1, 4 << 20)
        free(big)
        let block = try #require(malloc(600 << 10))
        defer { free(block) }
        #expect(cmalloc_is_mapped_block(block) == 1)
        let small = try #require(malloc(64 << 10))
        defer { free(small) }
        #expect(cmalloc_is_mapped_block(small) == 0, "below the threshold: from the heap")
    }
}
