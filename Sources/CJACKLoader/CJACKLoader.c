// Resolves the JACK client API from libjack at run time (see CJACKLoader.h).
#define _GNU_SOURCE
#include "CJACKLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

// The real jack_client_open is variadic: (name, options, status, ...server_name).
typedef jack_client_t *(*open_fn)(const char *, int, int *, ...);

static struct {
    open_fn client_open;
    int (*client_close)(jack_client_t *);
    const char *(*get_client_name)(jack_client_t *);
    int (*activate)(jack_client_t *);
    int (*deactivate)(jack_client_t *);
    int (*set_process_callback)(jack_client_t *, pj_jack_process_callback, void *);
    int (*set_buffer_size_callback)(jack_client_t *, pj_jack_nframes_callback, void *);
    int (*set_sample_rate_callback)(jack_client_t *, pj_jack_nframes_callback, void *);
    int (*set_xrun_callback)(jack_client_t *, pj_jack_xrun_callback, void *);
    void (*on_shutdown)(jack_client_t *, pj_jack_shutdown_callback, void *);
    void (*on_info_shutdown)(jack_client_t *, pj_jack_info_shutdown_callback, void *);
    jack_nframes_t (*get_sample_rate)(jack_client_t *);
    jack_nframes_t (*get_buffer_size)(jack_client_t *);
    int (*is_realtime)(jack_client_t *);
    float (*cpu_load)(jack_client_t *);
    jack_nframes_t (*last_frame_time)(const jack_client_t *);
    const char *(*get_version_string)(void);
    jack_port_t *(*port_register)(jack_client_t *, const char *, const char *, unsigned long, unsigned long);
    int (*port_unregister)(jack_client_t *, jack_port_t *);
    void *(*port_get_buffer)(jack_port_t *, jack_nframes_t);
    const char *(*port_name)(const jack_port_t *);
    const char *(*port_type)(const jack_port_t *);
    int (*port_flags)(const jack_port_t *);
    jack_port_t *(*port_by_name)(jack_client_t *, const char *);
    jack_port_t *(*port_by_id)(jack_client_t *, uint32_t);
    void (*port_get_latency_range)(jack_port_t *, int, pj_jack_latency_range_t *);
    void (*port_set_latency_range)(jack_port_t *, int, pj_jack_latency_range_t *);
    int (*set_latency_callback)(jack_client_t *, pj_jack_latency_callback, void *);
    int (*recompute_total_latencies)(jack_client_t *);
    int (*set_port_connect_callback)(jack_client_t *, pj_jack_port_connect_callback, void *);
    const char **(*get_ports)(jack_client_t *, const char *, const char *, unsigned long);
    const char **(*port_get_all_connections)(const jack_client_t *, const jack_port_t *);
    int (*port_get_aliases)(const jack_port_t *, char *const aliases[2]);
    int (*port_name_size)(void);
    int (*connect)(jack_client_t *, const char *, const char *);
    int (*disconnect)(jack_client_t *, const char *, const char *);
    void (*free)(void *);
    uint32_t (*midi_get_event_count)(void *);
    int (*midi_event_get)(pj_jack_midi_event_t *, void *, uint32_t);
    void (*midi_clear_buffer)(void *);
    int (*midi_event_write)(void *, jack_nframes_t, const jack_midi_data_t *, size_t);
    uint32_t (*midi_get_lost_event_count)(void *);
    void (*set_error_function)(void (*)(const char *));
    void (*set_info_function)(void (*)(const char *));
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[512];

static void silent(const char *message) { (void)message; }
static void to_stderr(const char *message) { fprintf(stderr, "libjack: %s\n", message); }

static int resolve(void *library, void **slot, const char *name, int required) {
    *slot = dlsym(library, name);
    if (*slot == NULL && required) {
        snprintf(load_error, sizeof load_error, "libjack has no symbol %s", name);
        return -1;
    }
    return 0;
}

static void load(void) {
    const char *override = getenv("PROSPERO_LIBJACK");
    const char *candidates[3] = {0};
    int count = 0;
    if (override != NULL && override[0] != '\0') {
        candidates[count++] = override;
    } else {
#if defined(__APPLE__)
        candidates[count++] = "libjack.0.dylib";
        candidates[count++] = "libjack.dylib";
#else
        candidates[count++] = "libjack.so.0";
        candidates[count++] = "libjack.so";
#endif
    }
    void *library = NULL;
    for (int i = 0; i < count && library == NULL; i++) {
        library = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            const char *why = dlerror();
            snprintf(load_error, sizeof load_error, "%s", why != NULL ? why : candidates[i]);
        }
    }
    if (library == NULL) {
        load_result = -1;
        return;
    }
#define REQUIRE(field, symbol) if (resolve(library, (void **)&api.field, symbol, 1) != 0) { load_result = -2; return; }
    REQUIRE(client_open, "jack_client_open")
    REQUIRE(client_close, "jack_client_close")
    REQUIRE(get_client_name, "jack_get_client_name")
    REQUIRE(activate, "jack_activate")
    REQUIRE(deactivate, "jack_deactivate")
    REQUIRE(set_process_callback, "jack_set_process_callback")
    REQUIRE(set_buffer_size_callback, "jack_set_buffer_size_callback")
    REQUIRE(set_sample_rate_callback, "jack_set_sample_rate_callback")
    REQUIRE(set_xrun_callback, "jack_set_xrun_callback")
    REQUIRE(on_shutdown, "jack_on_shutdown")
    REQUIRE(get_sample_rate, "jack_get_sample_rate")
    REQUIRE(get_buffer_size, "jack_get_buffer_size")
    REQUIRE(is_realtime, "jack_is_realtime")
    REQUIRE(cpu_load, "jack_cpu_load")
    REQUIRE(last_frame_time, "jack_last_frame_time")
    REQUIRE(port_register, "jack_port_register")
    REQUIRE(port_unregister, "jack_port_unregister")
    REQUIRE(port_get_buffer, "jack_port_get_buffer")
    REQUIRE(port_name, "jack_port_name")
    REQUIRE(port_type, "jack_port_type")
    REQUIRE(port_flags, "jack_port_flags")
    REQUIRE(port_by_name, "jack_port_by_name")
    REQUIRE(port_by_id, "jack_port_by_id")
    REQUIRE(port_get_latency_range, "jack_port_get_latency_range")
    REQUIRE(get_ports, "jack_get_ports")
    REQUIRE(port_get_all_connections, "jack_port_get_all_connections")
    REQUIRE(connect, "jack_connect")
    REQUIRE(disconnect, "jack_disconnect")
    REQUIRE(free, "jack_free")
    REQUIRE(midi_get_event_count, "jack_midi_get_event_count")
    REQUIRE(midi_event_get, "jack_midi_event_get")
    REQUIRE(midi_clear_buffer, "jack_midi_clear_buffer")
    REQUIRE(midi_event_write, "jack_midi_event_write")
    REQUIRE(midi_get_lost_event_count, "jack_midi_get_lost_event_count")
#undef REQUIRE
    resolve(library, (void **)&api.on_info_shutdown, "jack_on_info_shutdown", 0);
    resolve(library, (void **)&api.port_set_latency_range, "jack_port_set_latency_range", 0);
    resolve(library, (void **)&api.set_latency_callback, "jack_set_latency_callback", 0);
    resolve(library, (void **)&api.recompute_total_latencies, "jack_recompute_total_latencies", 0);
    resolve(library, (void **)&api.set_port_connect_callback, "jack_set_port_connect_callback", 0);
    resolve(library, (void **)&api.get_version_string, "jack_get_version_string", 0);
    resolve(library, (void **)&api.set_error_function, "jack_set_error_function", 0);
    resolve(library, (void **)&api.set_info_function, "jack_set_info_function", 0);
    resolve(library, (void **)&api.port_get_aliases, "jack_port_get_aliases", 0);
    resolve(library, (void **)&api.port_name_size, "jack_port_name_size", 0);
    load_error[0] = '\0';
    load_result = 0;
    // libjack prints every failed connection attempt; Prospero reports errors itself.
    pj_jack_set_quiet(getenv("PROSPERO_JACK_VERBOSE") == NULL);
}

int pj_jack_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

const char *pj_jack_load_error(void) { return load_error; }
int pj_jack_has_info_shutdown(void) { return api.on_info_shutdown != NULL; }
int pj_jack_has_latency_callback(void) { return api.set_latency_callback != NULL && api.port_set_latency_range != NULL; }
int pj_jack_set_latency_callback(jack_client_t *c, pj_jack_latency_callback f, void *a) {
    return api.set_latency_callback ? api.set_latency_callback(c, f, a) : -1;
}
int pj_jack_recompute_total_latencies(jack_client_t *c) {
    return api.recompute_total_latencies ? api.recompute_total_latencies(c) : -1;
}
int pj_jack_set_port_connect_callback(jack_client_t *c, pj_jack_port_connect_callback f, void *a) {
    return api.set_port_connect_callback ? api.set_port_connect_callback(c, f, a) : -1;
}
void pj_jack_port_set_latency_range(jack_port_t *p, int m, pj_jack_latency_range_t *r) {
    if (api.port_set_latency_range) api.port_set_latency_range(p, m, r);
}

void pj_jack_set_quiet(int quiet) {
    if (api.set_error_function != NULL) api.set_error_function(quiet ? silent : to_stderr);
    if (api.set_info_function != NULL) api.set_info_function(quiet ? silent : to_stderr);
}

jack_client_t *pj_jack_client_open(const char *client_name, int options, int *status, const char *server_name) {
    if (server_name != NULL) {
        return api.client_open(client_name, options | PJJackServerName, status, server_name);
    }
    return api.client_open(client_name, options & ~PJJackServerName, status);
}

int pj_jack_client_close(jack_client_t *c) { return api.client_close(c); }
const char *pj_jack_get_client_name(jack_client_t *c) { return api.get_client_name(c); }
int pj_jack_activate(jack_client_t *c) { return api.activate(c); }
int pj_jack_deactivate(jack_client_t *c) { return api.deactivate(c); }
int pj_jack_set_process_callback(jack_client_t *c, pj_jack_process_callback f, void *a) { return api.set_process_callback(c, f, a); }
int pj_jack_set_buffer_size_callback(jack_client_t *c, pj_jack_nframes_callback f, void *a) { return api.set_buffer_size_callback(c, f, a); }
int pj_jack_set_sample_rate_callback(jack_client_t *c, pj_jack_nframes_callback f, void *a) { return api.set_sample_rate_callback(c, f, a); }
int pj_jack_set_xrun_callback(jack_client_t *c, pj_jack_xrun_callback f, void *a) { return api.set_xrun_callback(c, f, a); }
void pj_jack_on_shutdown(jack_client_t *c, pj_jack_shutdown_callback f, void *a) { api.on_shutdown(c, f, a); }
void pj_jack_on_info_shutdown(jack_client_t *c, pj_jack_info_shutdown_callback f, void *a) {
    if (api.on_info_shutdown != NULL) api.on_info_shutdown(c, f, a);
}
jack_nframes_t pj_jack_get_sample_rate(jack_client_t *c) { return api.get_sample_rate(c); }
jack_nframes_t pj_jack_get_buffer_size(jack_client_t *c) { return api.get_buffer_size(c); }
int pj_jack_is_realtime(jack_client_t *c) { return api.is_realtime(c); }
float pj_jack_cpu_load(jack_client_t *c) { return api.cpu_load(c); }
jack_nframes_t pj_jack_last_frame_time(jack_client_t *c) { return api.last_frame_time(c); }
const char *pj_jack_get_version_string(void) { return api.get_version_string != NULL ? api.get_version_string() : "unknown"; }

jack_port_t *pj_jack_port_register(jack_client_t *c, const char *n, const char *t, unsigned long f, unsigned long s) { return api.port_register(c, n, t, f, s); }
int pj_jack_port_unregister(jack_client_t *c, jack_port_t *p) { return api.port_unregister(c, p); }
void *pj_jack_port_get_buffer(jack_port_t *p, jack_nframes_t n) { return api.port_get_buffer(p, n); }
const char *pj_jack_port_name(const jack_port_t *p) { return api.port_name(p); }
const char *pj_jack_port_type(const jack_port_t *p) { return api.port_type(p); }
int pj_jack_port_flags(const jack_port_t *p) { return api.port_flags(p); }
jack_port_t *pj_jack_port_by_name(jack_client_t *c, const char *n) { return api.port_by_name(c, n); }
jack_port_t *pj_jack_port_by_id(jack_client_t *c, uint32_t id) { return api.port_by_id(c, id); }
void pj_jack_port_get_latency_range(jack_port_t *p, int m, pj_jack_latency_range_t *r) { api.port_get_latency_range(p, m, r); }
const char **pj_jack_get_ports(jack_client_t *c, const char *n, const char *t, unsigned long f) { return api.get_ports(c, n, t, f); }
const char **pj_jack_port_get_all_connections(const jack_client_t *c, const jack_port_t *p) { return api.port_get_all_connections(c, p); }
int pj_jack_has_port_aliases(void) { return api.port_get_aliases != NULL; }
int pj_jack_port_get_aliases(const jack_port_t *port, char *first, char *second, size_t capacity) {
    if (api.port_get_aliases == NULL || capacity == 0) return -1;
    // jack_port_get_aliases writes up to jack_port_name_size() bytes into each buffer.
    size_t needed = api.port_name_size != NULL ? (size_t)api.port_name_size() : 320;
    if (needed > capacity) return -1;
    first[0] = '\0';
    second[0] = '\0';
    char *const aliases[2] = {first, second};
    return api.port_get_aliases(port, aliases);
}
int pj_jack_connect(jack_client_t *c, const char *s, const char *d) { return api.connect(c, s, d); }
int pj_jack_disconnect(jack_client_t *c, const char *s, const char *d) { return api.disconnect(c, s, d); }
void pj_jack_free(void *p) { api.free(p); }

uint32_t pj_jack_midi_get_event_count(void *b) { return api.midi_get_event_count(b); }
int pj_jack_midi_event_get(pj_jack_midi_event_t *e, void *b, uint32_t i) { return api.midi_event_get(e, b, i); }
void pj_jack_midi_clear_buffer(void *b) { api.midi_clear_buffer(b); }
int pj_jack_midi_event_write(void *b, jack_nframes_t t, const jack_midi_data_t *d, size_t s) { return api.midi_event_write(b, t, d, s); }
uint32_t pj_jack_midi_get_lost_event_count(void *b) { return api.midi_get_lost_event_count(b); }

uint64_t pj_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

uint64_t pj_thread_cpu_nanoseconds(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

int pj_thread_usage(pj_thread_usage_t *usage) {
    struct rusage r;
    if (getrusage(RUSAGE_THREAD, &r) != 0) {
        memset(usage, 0, sizeof *usage);
        return -1;
    }
    usage->minor_faults = r.ru_minflt;
    usage->major_faults = r.ru_majflt;
    usage->voluntary_switches = r.ru_nvcsw;
    usage->involuntary_switches = r.ru_nivcsw;
    return 0;
}

int pj_thread_scheduling(int *policy, int *priority) {
    struct sched_param param;
    int result = pthread_getschedparam(pthread_self(), policy, &param);
    *priority = result == 0 ? param.sched_priority : 0;
    return result;
}

int64_t pj_memlock_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return -2;
    if (limit.rlim_cur == RLIM_INFINITY) return -1;
    return (int64_t)limit.rlim_cur;
}

int pj_lock_current_memory(void) {
    return mlockall(MCL_CURRENT) == 0 ? 0 : errno;
}

void pj_process_memory(int64_t *resident, int64_t *mapped) {
    *resident = 0;
    *mapped = 0;
    FILE *file = fopen("/proc/self/statm", "r");
    if (!file) return;
    long size = 0, rss = 0;
    if (fscanf(file, "%ld %ld", &size, &rss) == 2) {
        long page = sysconf(_SC_PAGESIZE);
        *mapped = (int64_t)size * page;
        *resident = (int64_t)rss * page;
    }
    fclose(file);
}
