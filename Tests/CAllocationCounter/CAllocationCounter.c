#include "CAllocationCounter.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

// Thread-local, initial-exec storage in the executable: reading it never calls
// malloc, so the interposers are safe even during thread start-up.
static __thread int counting_enabled;
static __thread int64_t allocation_count;
static __thread int64_t free_count;

int allocation_counter_begin(void) {
    int previous = counting_enabled;
    counting_enabled = 1;
    return previous;
}

void allocation_counter_end(int previous) { counting_enabled = previous; }
int64_t allocation_counter_allocations(void) { return allocation_count; }
int64_t allocation_counter_frees(void) { return free_count; }

void allocation_counter_touch_heap(uint64_t size) {
    // volatile function pointers so the compiler cannot elide the pair.
    void *(*volatile allocate)(size_t) = malloc;
    void (*volatile release)(void *) = free;
    release(allocate((size_t)size));
}

// Under ThreadSanitizer or AddressSanitizer the sanitizer runtime owns malloc;
// interposing here would bypass its allocator, so counting is compiled out.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define ALLOCATION_COUNTER_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ALLOCATION_COUNTER_SANITIZED 1
#endif

#if defined(ALLOCATION_COUNTER_SANITIZED)
int allocation_counter_is_sanitized(void) { return 1; }
#else
int allocation_counter_is_sanitized(void) { return 0; }
#endif

#if defined(__GLIBC__) && !defined(ALLOCATION_COUNTER_SANITIZED)

// glibc's real allocator entry points. Forwarding to these (rather than
// dlsym(RTLD_NEXT)) needs no lookup at start-up, so there is no bootstrap
// recursion through dlsym's own calloc.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

int allocation_counter_is_interposing(void) { return 1; }

#define COUNT_ALLOCATION() do { if (counting_enabled) allocation_count += 1; } while (0)

void *malloc(size_t size) {
    COUNT_ALLOCATION();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    COUNT_ALLOCATION();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    COUNT_ALLOCATION();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL && counting_enabled) free_count += 1;
    __libc_free(pointer);
}

static int is_power_of_two(size_t value) { return value != 0 && (value & (value - 1)) == 0; }

int posix_memalign(void **result, size_t alignment, size_t size) {
    COUNT_ALLOCATION();
    if (!is_power_of_two(alignment) || alignment % sizeof(void *) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    COUNT_ALLOCATION();
    if (!is_power_of_two(alignment)) {
        errno = EINVAL;
        return NULL;
    }
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    COUNT_ALLOCATION();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    COUNT_ALLOCATION();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    COUNT_ALLOCATION();
    return __libc_pvalloc(size);
}

#else

int allocation_counter_is_interposing(void) { return 0; }

#endif
