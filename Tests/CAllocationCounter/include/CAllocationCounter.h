#ifndef CALLOCATION_COUNTER_H
#define CALLOCATION_COUNTER_H

// Test-only allocation counting by malloc interposition (glibc).
//
// The test executable defines malloc, calloc, realloc, free, posix_memalign,
// aligned_alloc, memalign, valloc and pvalloc; the dynamic linker resolves every
// caller in the process (Swift runtime, Foundation, libstdc++) to these, and they
// forward to glibc's __libc_* entry points. Counting is per thread (thread-local
// counters and enable flag), so tests running in parallel on other threads do not
// disturb each other. Use it through the Swift AllocationCounter helper.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the interposers are compiled in (glibc); 0 elsewhere (counts stay 0).
int allocation_counter_is_interposing(void);

/// 1 in a ThreadSanitizer/AddressSanitizer build, where interposition is compiled out.
int allocation_counter_is_sanitized(void);

/// Starts counting on the calling thread; returns the previous enable state.
int allocation_counter_begin(void);
/// Stops counting on the calling thread and restores `previous` (for nesting).
void allocation_counter_end(int previous);

/// Allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign, valloc, pvalloc) made on the calling thread while counting was on.
int64_t allocation_counter_allocations(void);
/// free calls with a non-null pointer made on the calling thread while counting was on.
int64_t allocation_counter_frees(void);

/// Calls malloc(size) and free through the dynamic symbol (for the self-test).
void allocation_counter_touch_heap(uint64_t size);

#ifdef __cplusplus
}
#endif

#endif
