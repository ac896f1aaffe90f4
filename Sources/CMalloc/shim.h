// glibc's malloc tuning (malloc.h), which Swift's Glibc module does not import: for the
// server's allocator policy (DiffableWeb's AllocatorPolicy).
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

/// Blocks of `bytes` and more are mapped on their own (and unmapped when freed); fixing the
/// threshold also stops glibc from raising it as large blocks are freed. Returns 1 on success.
static inline int cmalloc_set_mapped_block_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

/// Whether `block` (from malloc) was mapped on its own: glibc marks such a chunk in the size
/// word before the block (its IS_MMAPPED bit). For tests of the policy.
static inline int cmalloc_is_mapped_block(void *block) {
    return (((size_t *)block)[-1] & 2) != 0;
}

/// Gives memory that is free at the top of the heap, and free pages inside it, back to the
/// system (after the server shed load). Returns 1 when some was given back.
static inline int cmalloc_trim(void) {
    return malloc_trim(0);
}

#endif
