// The LV2 test host: loads our plugins through liblilv as a DAW does and plays MIDI events through them.
// Built by LV2Tests with gcc against liblilv-dev; every allocation made inside run() is counted by the
// malloc family interposed below (per thread, only while run() executes).
//
//   lv2host [--preset URI] [--set SYMBOL=VALUE]... [--blocks N,N,...] [--rate HZ] [--frames N]
//           [--events FILE] [--out PREFIX] [--restore STRING] [--save] URI [URI...]
//
// Every URI is instantiated in the one process (the same plugin twice is allowed) and renders the same
// events; the output of the k-th goes to PREFIX.k as raw float32, left then right (planar). Events: lines
// "FRAME STATUS DATA1 DATA2" (decimal). Block sizes cycle through --blocks. Prints per instance:
// "latency K N", "allocations K N" and, with --save, "state K STRING" (the State extension's string).
#define _GNU_SOURCE
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/midi/midi.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- allocation probe -------------------------------------------------------------------------
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
static __thread int counting = 0;
static __thread long allocations = 0;
void *malloc(size_t n) { if (counting) allocations++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { if (counting) allocations++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { if (counting) allocations++; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
int posix_memalign(void **out, size_t align, size_t n) {
    if (counting) allocations++;
    *out = __libc_memalign(align, n);
    return *out ? 0 : 12;
}
void *aligned_alloc(size_t align, size_t n) { if (counting) allocations++; return __libc_memalign(align, n); }
void *memalign(size_t align, size_t n) { if (counting) allocations++; return __libc_memalign(align, n); }

// ---- URID map -----------------------------------------------------------------------------------
static char *uris[4096];
static uint32_t uri_count = 0;
static LV2_URID map_uri(LV2_URID_Map_Handle h, const char *uri) {
    (void)h;
    for (uint32_t i = 0; i < uri_count; i++)
        if (!strcmp(uris[i], uri)) return i + 1;
    uris[uri_count] = strdup(uri);
    return ++uri_count;
}
static const char *unmap_uri(LV2_URID_Unmap_Handle h, LV2_URID id) {
    (void)h;
    return id >= 1 && id <= uri_count ? uris[id - 1] : NULL;
}

// ---- State callbacks ----------------------------------------------------------------------------
static char saved[65536];
static const char *to_restore = NULL;
static LV2_State_Status store(LV2_State_Handle h, uint32_t key, const void *value, size_t size, uint32_t type,
                              uint32_t flags) {
    (void)h; (void)key; (void)flags;
    if (type != map_uri(NULL, LV2_ATOM__String) || size >= sizeof saved) return LV2_STATE_ERR_BAD_TYPE;
    memcpy(saved, value, size);
    saved[size] = 0;
    return LV2_STATE_SUCCESS;
}
static const void *retrieve(LV2_State_Handle h, uint32_t key, size_t *size, uint32_t *type, uint32_t *flags) {
    (void)h; (void)key;
    *size = strlen(to_restore) + 1;
    *type = map_uri(NULL, LV2_ATOM__String);
    *flags = LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE;
    return to_restore;
}

// ---- Preset port values (lilv_state_restore calls this) -------------------------------------------
typedef struct {
    const LilvPlugin *plugin;
    float *controls;
} Target;
static void set_port(const char *symbol, void *data, const void *value, uint32_t size, uint32_t type) {
    Target *t = data;
    (void)size;
    for (uint32_t i = 0; i < lilv_plugin_get_num_ports(t->plugin); i++) {
        const LilvPort *p = lilv_plugin_get_port_by_index(t->plugin, i);
        if (!strcmp(lilv_node_as_string(lilv_port_get_symbol(t->plugin, p)), symbol)) {
            if (type == map_uri(NULL, LV2_ATOM__Float)) t->controls[i] = *(const float *)value;
            else if (type == map_uri(NULL, LV2_ATOM__Double)) t->controls[i] = (float)*(const double *)value;
            else if (type == map_uri(NULL, LV2_ATOM__Int)) t->controls[i] = (float)*(const int32_t *)value;
        }
    }
}

typedef struct { long frame; uint8_t bytes[3]; } Event;

int main(int argc, char **argv) {
    const char *preset = NULL, *events_path = NULL, *out = NULL;
    const char *sets[256];
    int set_count = 0, save = 0;
    int blocks[256], block_count = 0;
    double rate = 48000;
    long frames = 48000;
    const char *plugin_uris[16];
    int plugin_count = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc) preset = argv[++i];
        else if (!strcmp(argv[i], "--set") && i + 1 < argc) sets[set_count++] = argv[++i];
        else if (!strcmp(argv[i], "--rate") && i + 1 < argc) rate = atof(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atol(argv[++i]);
        else if (!strcmp(argv[i], "--events") && i + 1 < argc) events_path = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--restore") && i + 1 < argc) to_restore = argv[++i];
        else if (!strcmp(argv[i], "--save")) save = 1;
        else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) {
            char *list = strdup(argv[++i]);
            for (char *tok = strtok(list, ","); tok && block_count < 256; tok = strtok(NULL, ",")) blocks[block_count++] = atoi(tok);
        } else if (plugin_count < 16) plugin_uris[plugin_count++] = argv[i];
    }
    if (!plugin_count) { fprintf(stderr, "usage: lv2host [options] URI...\n"); return 2; }
    if (!block_count) blocks[block_count++] = 256;
    int max_block = 0;
    for (int i = 0; i < block_count; i++) if (blocks[i] > max_block) max_block = blocks[i];

    Event *events = calloc(1 << 20, sizeof(Event));
    long event_count = 0;
    if (events_path) {
        FILE *f = fopen(events_path, "r");
        if (!f) { perror(events_path); return 1; }
        long fr; int a, b, c;
        while (fscanf(f, "%ld %d %d %d", &fr, &a, &b, &c) == 4 && event_count < (1 << 20)) {
            events[event_count].frame = fr;
            events[event_count].bytes[0] = a; events[event_count].bytes[1] = b; events[event_count].bytes[2] = c;
            event_count++;
        }
        fclose(f);
    }

    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    const LilvPlugins *plugins = lilv_world_get_all_plugins(world);
    LV2_URID_Map map = {NULL, map_uri};
    LV2_URID_Unmap unmap = {NULL, unmap_uri};
    LV2_Feature map_feature = {LV2_URID__map, &map};
    LV2_Feature unmap_feature = {LV2_URID__unmap, &unmap};
    const LV2_Feature *features[] = {&map_feature, &unmap_feature, NULL};
    LV2_URID midi_event = map_uri(NULL, LV2_MIDI__MidiEvent);
    LV2_URID sequence_type = map_uri(NULL, LV2_ATOM__Sequence);
    LV2_URID frame_time = map_uri(NULL, "http://lv2plug.in/ns/ext/atom#frameTime");

    LilvInstance *instances[16];
    const LilvPlugin *chosen[16];
    float *controls[16], *outputs[16][2];
    FILE *files[16];
    uint8_t *sequence = aligned_alloc(8, 1 << 20);
    for (int k = 0; k < plugin_count; k++) {
        LilvNode *uri = lilv_new_uri(world, plugin_uris[k]);
        chosen[k] = lilv_plugins_get_by_uri(plugins, uri);
        lilv_node_free(uri);
        if (!chosen[k]) { fprintf(stderr, "plugin %s not found\n", plugin_uris[k]); return 1; }
        instances[k] = lilv_plugin_instantiate(chosen[k], rate, features);
        if (!instances[k]) { fprintf(stderr, "cannot instantiate %s at %g Hz\n", plugin_uris[k], rate); return 1; }
        uint32_t n = lilv_plugin_get_num_ports(chosen[k]);
        controls[k] = calloc(n, sizeof(float));
        float *defaults = calloc(n, sizeof(float));
        lilv_plugin_get_port_ranges_float(chosen[k], NULL, NULL, defaults);
        for (uint32_t i = 0; i < n; i++) controls[k][i] = isnan(defaults[i]) ? 0 : defaults[i];
        free(defaults);
        Target target = {chosen[k], controls[k]};
        if (preset) {
            LilvNode *preset_uri = lilv_new_uri(world, preset);
            lilv_world_load_resource(world, preset_uri);
            LilvState *state = lilv_state_new_from_world(world, &map, preset_uri);
            if (!state) { fprintf(stderr, "preset %s not found\n", preset); return 1; }
            lilv_state_restore(state, instances[k], set_port, &target, 0, features);
            lilv_state_free(state);
            lilv_node_free(preset_uri);
        }
        for (int s = 0; s < set_count; s++) {
            char symbol[256];
            float value;
            if (sscanf(sets[s], "%255[^=]=%f", symbol, &value) != 2) { fprintf(stderr, "bad --set %s\n", sets[s]); return 2; }
            int found = 0;
            for (uint32_t i = 0; i < n; i++) {
                const LilvPort *p = lilv_plugin_get_port_by_index(chosen[k], i);
                if (!strcmp(lilv_node_as_string(lilv_port_get_symbol(chosen[k], p)), symbol)) { controls[k][i] = value; found = 1; }
            }
            if (!found) { fprintf(stderr, "no port %s\n", symbol); return 2; }
        }
        const LV2_State_Interface *state_interface = lilv_instance_get_extension_data(instances[k], LV2_STATE__interface);
        if (to_restore) {
            if (!state_interface) { fprintf(stderr, "no state interface\n"); return 1; }
            if (state_interface->restore(lilv_instance_get_handle(instances[k]), retrieve, NULL, 0, features) != LV2_STATE_SUCCESS) {
                fprintf(stderr, "restore refused\n");
                return 1;
            }
        }
        outputs[k][0] = calloc(max_block, sizeof(float));
        outputs[k][1] = calloc(max_block, sizeof(float));
        int audio = 0;
        for (uint32_t i = 0; i < n; i++) {
            const LilvPort *p = lilv_plugin_get_port_by_index(chosen[k], i);
            LilvNode *audio_class = lilv_new_uri(world, LV2_CORE__AudioPort);
            LilvNode *atom_class = lilv_new_uri(world, LV2_ATOM__AtomPort);
            if (lilv_port_is_a(chosen[k], p, audio_class)) lilv_instance_connect_port(instances[k], i, outputs[k][audio++]);
            else if (lilv_port_is_a(chosen[k], p, atom_class)) lilv_instance_connect_port(instances[k], i, sequence);
            else lilv_instance_connect_port(instances[k], i, &controls[k][i]);
            lilv_node_free(audio_class);
            lilv_node_free(atom_class);
        }
        files[k] = NULL;
        if (out) {
            char path[4096];
            snprintf(path, sizeof path, "%s.%d", out, k);
            files[k] = fopen(path, "wb");
            if (!files[k]) { perror(path); return 1; }
        }
        lilv_instance_activate(instances[k]);
    }

    long done = 0, next_event = 0, run_allocations[16] = {0};
    int block_index = 0;
    float *planar = malloc(sizeof(float) * 2 * (size_t)frames);
    float *planars[16];
    for (int k = 0; k < plugin_count; k++) planars[k] = malloc(sizeof(float) * 2 * (size_t)frames);
    (void)planar;
    while (done < frames) {
        long block = blocks[block_index++ % block_count];
        if (block > frames - done) block = frames - done;
        // The block's events as an atom sequence.
        LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)sequence;
        seq->atom.type = sequence_type;
        seq->body.unit = frame_time;
        seq->body.pad = 0;
        uint32_t used = sizeof(LV2_Atom_Sequence_Body);
        while (next_event < event_count && events[next_event].frame < done + block) {
            LV2_Atom_Event *ev = (LV2_Atom_Event *)((uint8_t *)&seq->body + used);
            ev->time.frames = events[next_event].frame - done;
            ev->body.size = (events[next_event].bytes[0] & 0xE0) == 0xC0 ? 2 : 3;
            ev->body.type = midi_event;
            memcpy(ev + 1, events[next_event].bytes, 3);
            used += sizeof(LV2_Atom_Event) + ((ev->body.size + 7) & ~7u);
            next_event++;
        }
        seq->atom.size = used;
        for (int k = 0; k < plugin_count; k++) {
            counting = 1;
            long before = allocations;
            lilv_instance_run(instances[k], (uint32_t)block);
            run_allocations[k] += allocations - before;
            counting = 0;
            memcpy(planars[k] + done, outputs[k][0], sizeof(float) * block);
            memcpy(planars[k] + frames + done, outputs[k][1], sizeof(float) * block);
        }
        done += block;
    }
    for (int k = 0; k < plugin_count; k++) {
        uint32_t n = lilv_plugin_get_num_ports(chosen[k]);
        LilvNode *latency = lilv_new_uri(world, LV2_CORE__latency);
        LilvNode *designation = lilv_new_uri(world, LV2_CORE__designation);
        for (uint32_t i = 0; i < n; i++) {
            const LilvPort *p = lilv_plugin_get_port_by_index(chosen[k], i);
            LilvNodes *d = lilv_port_get_value(chosen[k], p, designation);
            if (d && lilv_nodes_contains(d, latency)) printf("latency %d %g\n", k, controls[k][i]);
            lilv_nodes_free(d);
        }
        lilv_node_free(latency);
        lilv_node_free(designation);
        printf("allocations %d %ld\n", k, run_allocations[k]);
        if (save) {
            const LV2_State_Interface *state_interface = lilv_instance_get_extension_data(instances[k], LV2_STATE__interface);
            saved[0] = 0;
            if (!state_interface ||
                state_interface->save(lilv_instance_get_handle(instances[k]), store, NULL, LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE, features) != LV2_STATE_SUCCESS) {
                fprintf(stderr, "save failed\n");
                return 1;
            }
            printf("state %d %s\n", k, saved);
        }
        if (files[k]) {
            fwrite(planars[k], sizeof(float), 2 * (size_t)frames, files[k]);
            fclose(files[k]);
        }
        lilv_instance_deactivate(instances[k]);
        lilv_instance_free(instances[k]);
    }
    lilv_world_free(world);
    return 0;
}
