#ifndef CLV2_H
#define CLV2_H

// The LV2 plugin ABI as plain C declarations: the descriptor a host finds through `lv2_descriptor`,
// features, URID mapping and the State extension's interface. Written from the LV2 specification
// (lv2plug.in, core 1.18, urid, state) so the plugins build without the LV2 headers installed; the
// layouts are the specification's and never change (an LV2 ABI break would be a new URI).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *CLV2Handle;

/// A host feature: its URI and data (e.g. the URID map).
typedef struct {
    const char *URI;
    void *data;
} CLV2Feature;

typedef struct CLV2Descriptor CLV2Descriptor;

/// One plugin as `lv2_descriptor(index)` returns it.
struct CLV2Descriptor {
    const char *URI;
    CLV2Handle (*instantiate)(const CLV2Descriptor *descriptor, double sample_rate, const char *bundle_path,
                              const CLV2Feature *const *features);
    void (*connect_port)(CLV2Handle instance, uint32_t port, void *data_location);
    void (*activate)(CLV2Handle instance);
    void (*run)(CLV2Handle instance, uint32_t sample_count);
    void (*deactivate)(CLV2Handle instance);
    void (*cleanup)(CLV2Handle instance);
    const void *(*extension_data)(const char *uri);
};

/// urid:map: URI → integer.
typedef struct {
    void *handle;
    uint32_t (*map)(void *handle, const char *uri);
} CLV2URIDMap;

/// state:interface status codes (LV2_STATE_SUCCESS = 0, LV2_STATE_ERR_UNKNOWN = 1, …ERR_NO_PROPERTY = 5).
enum {
    CLV2_STATE_SUCCESS = 0,
    CLV2_STATE_ERR_UNKNOWN = 1,
    CLV2_STATE_ERR_BAD_TYPE = 2,
    CLV2_STATE_ERR_BAD_FLAGS = 3,
    CLV2_STATE_ERR_NO_FEATURE = 4,
    CLV2_STATE_ERR_NO_PROPERTY = 5,
};

/// state flags: plain old data, portable between machines.
enum {
    CLV2_STATE_IS_POD = 1,
    CLV2_STATE_IS_PORTABLE = 2,
};

typedef uint32_t (*CLV2StateStore)(void *handle, uint32_t key, const void *value, size_t size, uint32_t type,
                                    uint32_t flags);
typedef const void *(*CLV2StateRetrieve)(void *handle, uint32_t key, size_t *size, uint32_t *type, uint32_t *flags);

/// state:interface, returned by `extension_data("http://lv2plug.in/ns/ext/state#interface")`.
typedef struct {
    uint32_t (*save)(CLV2Handle instance, CLV2StateStore store, void *handle, uint32_t flags,
                     const CLV2Feature *const *features);
    uint32_t (*restore)(CLV2Handle instance, CLV2StateRetrieve retrieve, void *handle, uint32_t flags,
                        const CLV2Feature *const *features);
} CLV2StateInterface;

#ifdef __cplusplus
}
#endif

#endif
