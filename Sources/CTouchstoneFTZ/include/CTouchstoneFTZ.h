#ifndef CTOUCHSTONE_FTZ_H
#define CTOUCHSTONE_FTZ_H

#include <stdint.h>

// Flush-to-zero / denormals-are-zero control for the calling thread.
//
// The floating-point control register is per thread, so these must be called on
// the audio thread itself (at the top of the callback), never once at start-up.
//   x86_64: MXCSR bit 15 (FTZ) and bit 6 (DAZ).
//   arm64:  FPCR bit 24 (FZ); arm64 has no separate DAZ bit, FZ covers inputs too.
//   other:  no-op; ctouchstone_ftz_is_supported() returns 0.

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#define CTOUCHSTONE_FTZ_MASK 0x8040u

static inline int ctouchstone_ftz_is_supported(void) { return 1; }

/// Returns the whole control word as it was before enabling, for ctouchstone_ftz_restore.
static inline uint64_t ctouchstone_ftz_enable(void) {
    unsigned int previous = _mm_getcsr();
    _mm_setcsr(previous | CTOUCHSTONE_FTZ_MASK);
    return (uint64_t)previous;
}

static inline void ctouchstone_ftz_restore(uint64_t saved) {
    _mm_setcsr((unsigned int)saved);
}

static inline int ctouchstone_ftz_is_enabled(void) {
    return (_mm_getcsr() & CTOUCHSTONE_FTZ_MASK) == CTOUCHSTONE_FTZ_MASK;
}

#elif defined(__aarch64__) || defined(_M_ARM64)
#define CTOUCHSTONE_FPCR_FZ (UINT64_C(1) << 24)

static inline int ctouchstone_ftz_is_supported(void) { return 1; }

static inline uint64_t ctouchstone_ftz_read_fpcr(void) {
    uint64_t value;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(value));
    return value;
}

static inline void ctouchstone_ftz_write_fpcr(uint64_t value) {
    __asm__ __volatile__("msr fpcr, %0" : : "r"(value));
}

static inline uint64_t ctouchstone_ftz_enable(void) {
    uint64_t previous = ctouchstone_ftz_read_fpcr();
    ctouchstone_ftz_write_fpcr(previous | CTOUCHSTONE_FPCR_FZ);
    return previous;
}

static inline void ctouchstone_ftz_restore(uint64_t saved) {
    ctouchstone_ftz_write_fpcr(saved);
}

static inline int ctouchstone_ftz_is_enabled(void) {
    return (ctouchstone_ftz_read_fpcr() & CTOUCHSTONE_FPCR_FZ) != 0;
}

#else

static inline int ctouchstone_ftz_is_supported(void) { return 0; }
static inline uint64_t ctouchstone_ftz_enable(void) { return 0; }
static inline void ctouchstone_ftz_restore(uint64_t saved) { (void)saved; }
static inline int ctouchstone_ftz_is_enabled(void) { return 0; }

#endif

#endif
