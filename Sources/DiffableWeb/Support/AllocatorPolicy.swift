import CMalloc

/// How the server asks glibc's `malloc` to hold memory: blocks of 512 KiB and more are mapped on
/// their own and given back when freed.
///
/// By default glibc raises that threshold to the largest block freed so far (up to 32 MiB): after
/// the first ~1 MiB request body or event, such blocks come from the heap, and the heap keeps
/// what they leave between longer-lived blocks. One client's 20 appends of ~1 MiB grew RSS by
/// 27 MB for 16.7 MB of lists (its 16 MiB budget), the first session only; with the threshold
/// fixed, by 18 MB (`Benchmarks/web/session_appends.py`, docs/benchmarks-history.md). Nothing on a hot path allocates
/// blocks that large since the snapshot's item index is kept in 4 KiB pages (a write to a copy
/// of a 100,000-item list no longer copies a 2 MiB table): a move's server CPU at 10,000 and
/// 100,000 items is unchanged by it.
enum AllocatorPolicy {
    /// The size from which a block is mapped on its own.
    static let mappedBlockThreshold: Int32 = 512 * 1024

    /// Applies the policy to the process (once, as the server starts).
    static func apply() {
        _ = cmalloc_set_mapped_block_threshold(mappedBlockThreshold)
    }
}
