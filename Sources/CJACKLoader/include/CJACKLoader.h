// CJACKLoader: the JACK client API, loaded from libjack at run time.
//
// A build needs neither JACK headers nor libjack: the types below restate the
// parts of <jack/jack.h>, <jack/types.h> and <jack/midiport.h> that Prospero uses
// (JACK's ABI has been stable since 2009), and pj_jack_load() resolves the
// functions with dlopen/dlsym. Every pj_jack_* wrapper requires a successful
// pj_jack_load() first.
#ifndef CJACKLOADER_H
#define CJACKLOADER_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Types restated from the JACK headers

typedef struct _jack_client jack_client_t;
typedef struct _jack_port jack_port_t;
typedef uint32_t jack_nframes_t;
typedef uint64_t jack_time_t;
typedef unsigned char jack_midi_data_t;

/// Layout of jack_midi_event_t in <jack/midiport.h>.
typedef struct {
    jack_nframes_t time;       ///< frame offset within the current period
    size_t size;               ///< number of bytes at `buffer`
    jack_midi_data_t *buffer;  ///< the raw MIDI bytes, valid during the process callback only
} pj_jack_midi_event_t;

/// Layout of jack_latency_range_t in <jack/types.h>.
typedef struct {
    jack_nframes_t min;
    jack_nframes_t max;
} pj_jack_latency_range_t;

/// jack_options_t bits.
enum {
    PJJackNullOption = 0x00,
    PJJackNoStartServer = 0x01,
    PJJackUseExactName = 0x02,
    PJJackServerName = 0x04,
};

/// jack_status_t bits.
enum {
    PJJackFailure = 0x01,
    PJJackInvalidOption = 0x02,
    PJJackNameNotUnique = 0x04,
    PJJackServerStarted = 0x08,
    PJJackServerFailed = 0x10,
    PJJackServerError = 0x20,
    PJJackNoSuchClient = 0x40,
    PJJackLoadFailure = 0x80,
    PJJackInitFailure = 0x100,
    PJJackShmFailure = 0x200,
    PJJackVersionError = 0x400,
    PJJackBackendError = 0x800,
    PJJackClientZombie = 0x1000,
};

/// JackPortFlags bits.
enum {
    PJJackPortIsInput = 0x1,
    PJJackPortIsOutput = 0x2,
    PJJackPortIsPhysical = 0x4,
    PJJackPortCanMonitor = 0x8,
    PJJackPortIsTerminal = 0x10,
};

/// jack_latency_callback_mode_t.
enum {
    PJJackCaptureLatency = 0,
    PJJackPlaybackLatency = 1,
};

#define PJ_JACK_DEFAULT_AUDIO_TYPE "32 bit float mono audio"
#define PJ_JACK_DEFAULT_MIDI_TYPE "8 bit raw midi"

typedef int (*pj_jack_process_callback)(jack_nframes_t nframes, void *arg);
typedef int (*pj_jack_nframes_callback)(jack_nframes_t nframes, void *arg);
typedef int (*pj_jack_xrun_callback)(void *arg);
typedef void (*pj_jack_shutdown_callback)(void *arg);
typedef void (*pj_jack_info_shutdown_callback)(int status, const char *reason, void *arg);
/// JackLatencyCallback: `mode` is PJJackCaptureLatency or PJJackPlaybackLatency.
typedef void (*pj_jack_latency_callback)(int mode, void *arg);
/// JackPortConnectCallback: ports `a` and `b` (jack_port_id_t) were connected (`connect` ≠ 0) or disconnected.
typedef void (*pj_jack_port_connect_callback)(uint32_t a, uint32_t b, int connect, void *arg);

// MARK: - Loading

/// Opens libjack ("libjack.so.0", then "libjack.so"; or the path in $PROSPERO_LIBJACK
/// when set) and resolves every function. Thread-safe; loads once per process.
/// Returns 0 on success, -1 when the library is missing, -2 when a required symbol is missing.
int pj_jack_load(void);

/// Why the last pj_jack_load() failed (dlerror text or the missing symbol), or "".
const char *pj_jack_load_error(void);

/// Whether the optional jack_on_info_shutdown symbol was found (JACK ≥ 0.116).
int pj_jack_has_info_shutdown(void);
/// Whether libjack has jack_set_latency_callback and jack_port_set_latency_range (optional symbols).
int pj_jack_has_latency_callback(void);
/// jack_set_latency_callback; -1 when libjack lacks it.
int pj_jack_set_latency_callback(jack_client_t *client, pj_jack_latency_callback callback, void *arg);
/// jack_recompute_total_latencies: the server asks every client's latency callback again (a client whose
/// processing latency changed calls it); -1 when libjack lacks it.
int pj_jack_recompute_total_latencies(jack_client_t *client);
/// jack_set_port_connect_callback (any client's connection made or broken; called on JACK's notification
/// thread, not the process thread); -1 when libjack lacks it.
int pj_jack_set_port_connect_callback(jack_client_t *client, pj_jack_port_connect_callback callback, void *arg);
/// jack_port_set_latency_range; nothing when libjack lacks it.
void pj_jack_port_set_latency_range(jack_port_t *port, int mode, pj_jack_latency_range_t *range);

/// Silences libjack's error and info messages (quiet = 1) or sends them to stderr (quiet = 0).
void pj_jack_set_quiet(int quiet);

// MARK: - Client

/// Non-variadic jack_client_open: `server_name` is passed with JackServerName when non-NULL.
jack_client_t *pj_jack_client_open(const char *client_name, int options, int *status, const char *server_name);
int pj_jack_client_close(jack_client_t *client);
const char *pj_jack_get_client_name(jack_client_t *client);
int pj_jack_activate(jack_client_t *client);
int pj_jack_deactivate(jack_client_t *client);
int pj_jack_set_process_callback(jack_client_t *client, pj_jack_process_callback callback, void *arg);
int pj_jack_set_buffer_size_callback(jack_client_t *client, pj_jack_nframes_callback callback, void *arg);
int pj_jack_set_sample_rate_callback(jack_client_t *client, pj_jack_nframes_callback callback, void *arg);
int pj_jack_set_xrun_callback(jack_client_t *client, pj_jack_xrun_callback callback, void *arg);
void pj_jack_on_shutdown(jack_client_t *client, pj_jack_shutdown_callback callback, void *arg);
void pj_jack_on_info_shutdown(jack_client_t *client, pj_jack_info_shutdown_callback callback, void *arg);
jack_nframes_t pj_jack_get_sample_rate(jack_client_t *client);
jack_nframes_t pj_jack_get_buffer_size(jack_client_t *client);
int pj_jack_is_realtime(jack_client_t *client);
float pj_jack_cpu_load(jack_client_t *client);
jack_nframes_t pj_jack_last_frame_time(jack_client_t *client);
const char *pj_jack_get_version_string(void);

// MARK: - Ports

jack_port_t *pj_jack_port_register(jack_client_t *client, const char *name, const char *type, unsigned long flags, unsigned long buffer_size);
int pj_jack_port_unregister(jack_client_t *client, jack_port_t *port);
void *pj_jack_port_get_buffer(jack_port_t *port, jack_nframes_t nframes);
const char *pj_jack_port_name(const jack_port_t *port);
const char *pj_jack_port_type(const jack_port_t *port);
int pj_jack_port_flags(const jack_port_t *port);
jack_port_t *pj_jack_port_by_name(jack_client_t *client, const char *name);
/// The port a notification names by id (the ids of jack_set_port_connect_callback), or NULL.
jack_port_t *pj_jack_port_by_id(jack_client_t *client, uint32_t port_id);
void pj_jack_port_get_latency_range(jack_port_t *port, int mode, pj_jack_latency_range_t *range);
/// NULL-terminated list of port names; release with pj_jack_free.
const char **pj_jack_get_ports(jack_client_t *client, const char *name_pattern, const char *type_pattern, unsigned long flags);
/// NULL-terminated list of the full names `port` is connected to; release with pj_jack_free.
const char **pj_jack_port_get_all_connections(const jack_client_t *client, const jack_port_t *port);
/// Whether libjack has jack_port_get_aliases (optional symbol; JACK 1, JACK 2 and PipeWire's libjack have it).
int pj_jack_has_port_aliases(void);
/// jack_port_get_aliases into two caller buffers of `capacity` bytes each (at least jack_port_name_size()):
/// the number of aliases (0…2), or -1 when libjack lacks the symbol or the buffers are too small.
/// PipeWire's aliases carry the node name ("bluez_output.….1:playback_FL") and the device's description.
int pj_jack_port_get_aliases(const jack_port_t *port, char *first, char *second, size_t capacity);
int pj_jack_connect(jack_client_t *client, const char *source, const char *destination);
int pj_jack_disconnect(jack_client_t *client, const char *source, const char *destination);
void pj_jack_free(void *pointer);

// MARK: - MIDI

uint32_t pj_jack_midi_get_event_count(void *port_buffer);
int pj_jack_midi_event_get(pj_jack_midi_event_t *event, void *port_buffer, uint32_t index);
void pj_jack_midi_clear_buffer(void *port_buffer);
int pj_jack_midi_event_write(void *port_buffer, jack_nframes_t time, const jack_midi_data_t *data, size_t size);
uint32_t pj_jack_midi_get_lost_event_count(void *port_buffer);

// MARK: - Real-time helpers

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC; vDSO, safe on the audio thread).
uint64_t pj_monotonic_nanoseconds(void);

/// CPU time the calling thread has used, in nanoseconds (CLOCK_THREAD_CPUTIME_ID: a system
/// call, no allocation, no lock; time while preempted or blocked is not counted).
uint64_t pj_thread_cpu_nanoseconds(void);

/// The calling thread's own resource counters (getrusage RUSAGE_THREAD): page faults served
/// without and with I/O, voluntary and involuntary context switches.
typedef struct {
    int64_t minor_faults;
    int64_t major_faults;
    int64_t voluntary_switches;
    int64_t involuntary_switches;
} pj_thread_usage_t;

/// Fills `usage` for the calling thread; 0 on success, else -1 (all fields 0).
int pj_thread_usage(pj_thread_usage_t *usage);

/// The calling thread's scheduling policy (SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2, …) and
/// priority (pthread_getschedparam); returns 0 on success.
int pj_thread_scheduling(int *policy, int *priority);

/// The soft RLIMIT_MEMLOCK in bytes; -1 when unlimited, -2 when it cannot be read.
int64_t pj_memlock_limit(void);

/// Locks the pages mapped now into RAM (mlockall(MCL_CURRENT), never MCL_FUTURE, which would
/// make later allocations fail at the limit). Returns 0, or the errno (ENOMEM: over the limit,
/// EPERM: not allowed).
int pj_lock_current_memory(void);

/// Bytes of the process's resident and total mapped memory (/proc/self/statm); 0 when unknown.
void pj_process_memory(int64_t *resident, int64_t *mapped);

/// Enables flush-to-zero and denormals-are-zero on the calling thread and returns the
/// previous floating-point control state, for pj_fpu_restore at the end of the callback.
/// Denormals make IIR tails and reverbs hundreds of times slower on x86, which turns a
/// decaying note into an xrun.
// The JACK process callback now uses Touchstone's FlushToZero; kept for C callers and tests.
static inline uint64_t pj_fpu_enable_flush_to_zero(void) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned int previous = _mm_getcsr();
    _mm_setcsr(previous | 0x8040u); // FTZ (bit 15) | DAZ (bit 6)
    return previous;
#elif defined(__aarch64__)
    uint64_t previous;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(previous));
    __asm__ __volatile__("msr fpcr, %0" : : "r"(previous | (1ull << 24))); // FZ
    return previous;
#else
    return 0;
#endif
}

/// Restores the state pj_fpu_enable_flush_to_zero returned.
static inline void pj_fpu_restore(uint64_t previous) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr((unsigned int)previous);
#elif defined(__aarch64__)
    __asm__ __volatile__("msr fpcr, %0" : : "r"(previous));
#else
    (void)previous;
#endif
}

/// Whether flush-to-zero is on for the calling thread (for tests).
static inline int pj_fpu_flush_to_zero_enabled(void) {
#if defined(__x86_64__) || defined(__i386__)
    return (_mm_getcsr() & 0x8000u) != 0;
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & (1ull << 24)) != 0;
#else
    return 0;
#endif
}

#ifdef __cplusplus
}
#endif

#endif
