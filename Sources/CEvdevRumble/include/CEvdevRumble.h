// Linux evdev force feedback (FF_RUMBLE) and a uinput virtual rumble device for tests.
// Every function returns a negative errno on failure. Linux only; compiled to stubs elsewhere.
#ifndef CEVDEV_RUMBLE_H
#define CEVDEV_RUMBLE_H

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/// Opens an event device for reading and writing (force feedback needs write access).
static inline int prospero_evdev_open(const char *path) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static inline void prospero_evdev_close(int fd) { close(fd); }

/// 1 when the device can play FF_RUMBLE effects, 0 when not.
static inline int prospero_evdev_has_rumble(int fd) {
    unsigned long bits[(FF_MAX / (8 * sizeof(unsigned long))) + 1];
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof bits), bits) < 0) return -errno;
    return (int)((bits[FF_RUMBLE / (8 * sizeof(unsigned long))] >> (FF_RUMBLE % (8 * sizeof(unsigned long)))) & 1UL);
}

/// How many effects the device holds at once.
static inline int prospero_evdev_effect_slots(int fd) {
    int n = 0;
    if (ioctl(fd, EVIOCGEFFECTS, &n) < 0) return -errno;
    return n;
}

/// The device's name into `buffer` (NUL-terminated).
static inline int prospero_evdev_name(int fd, char *buffer, int length) {
    if (length <= 0) return -EINVAL;
    memset(buffer, 0, (size_t)length);
    if (ioctl(fd, EVIOCGNAME(length - 1), buffer) < 0) return -errno;
    return 0;
}

/// Uploads (id −1) or replaces (id ≥ 0) a rumble effect; returns its id.
/// Magnitudes 0…65535; length in milliseconds.
static inline int prospero_evdev_upload_rumble(int fd, int id, unsigned short strong, unsigned short weak, unsigned short length_ms) {
    struct ff_effect effect;
    memset(&effect, 0, sizeof effect);
    effect.type = FF_RUMBLE;
    effect.id = (short)id;
    effect.replay.length = length_ms;
    effect.replay.delay = 0;
    effect.u.rumble.strong_magnitude = strong;
    effect.u.rumble.weak_magnitude = weak;
    if (ioctl(fd, EVIOCSFF, &effect) < 0) return -errno;
    return effect.id;
}

/// Starts (value 1) or stops (value 0) effect `id`.
static inline int prospero_evdev_play(int fd, int id, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = EV_FF;
    event.code = (unsigned short)id;
    event.value = value;
    if (write(fd, &event, sizeof event) != (ssize_t)sizeof event) return -errno;
    return 0;
}

/// Removes effect `id` from the device.
static inline int prospero_evdev_erase(int fd, int id) {
    if (ioctl(fd, EVIOCRMFF, id) < 0) return -errno;
    return 0;
}

/// Creates a virtual force-feedback device (FF_RUMBLE, 16 effect slots) through /dev/uinput.
static inline int prospero_uinput_create_rumble(const char *name) {
    int fd = open("/dev/uinput", O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -errno;
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1209;
    setup.id.product = 0x0001;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    setup.ff_effects_max = 16;
    if (ioctl(fd, UI_SET_EVBIT, EV_FF) < 0 || ioctl(fd, UI_SET_FFBIT, FF_RUMBLE) < 0 ||
        ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

/// The virtual device's sysfs name ("inputN") into `buffer`.
static inline int prospero_uinput_sysname(int fd, char *buffer, int length) {
    if (length <= 0) return -EINVAL;
    memset(buffer, 0, (size_t)length);
    if (ioctl(fd, UI_GET_SYSNAME(length - 1), buffer) < 0) return -errno;
    return 0;
}

/// Answers pending upload and erase requests and counts what arrived: uploads and the strongest
/// strong magnitude uploaded, and plays (EV_FF with value > 0). Non-blocking; returns 0 or −errno.
static inline int prospero_uinput_service(int fd, int *uploads, int *plays, int *strongest) {
    struct input_event event;
    for (;;) {
        ssize_t n = read(fd, &event, sizeof event);
        if (n != (ssize_t)sizeof event) return (n < 0 && errno != EAGAIN) ? -errno : 0;
        if (event.type == EV_UINPUT && event.code == UI_FF_UPLOAD) {
            struct uinput_ff_upload upload;
            memset(&upload, 0, sizeof upload);
            upload.request_id = (unsigned int)event.value;
            if (ioctl(fd, UI_BEGIN_FF_UPLOAD, &upload) < 0) return -errno;
            if (upload.effect.type == FF_RUMBLE && upload.effect.u.rumble.strong_magnitude > *strongest)
                *strongest = upload.effect.u.rumble.strong_magnitude;
            upload.retval = 0;
            if (ioctl(fd, UI_END_FF_UPLOAD, &upload) < 0) return -errno;
            (*uploads)++;
        } else if (event.type == EV_UINPUT && event.code == UI_FF_ERASE) {
            struct uinput_ff_erase erase;
            memset(&erase, 0, sizeof erase);
            erase.request_id = (unsigned int)event.value;
            if (ioctl(fd, UI_BEGIN_FF_ERASE, &erase) < 0) return -errno;
            erase.retval = 0;
            if (ioctl(fd, UI_END_FF_ERASE, &erase) < 0) return -errno;
        } else if (event.type == EV_FF && event.value > 0) {
            (*plays)++;
        }
    }
}

static inline void prospero_uinput_destroy(int fd) {
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
}

#else
static inline int prospero_evdev_open(const char *path) { (void)path; return -38; }
static inline void prospero_evdev_close(int fd) { (void)fd; }
static inline int prospero_evdev_has_rumble(int fd) { (void)fd; return -38; }
static inline int prospero_evdev_effect_slots(int fd) { (void)fd; return -38; }
static inline int prospero_evdev_name(int fd, char *b, int l) { (void)fd; (void)b; (void)l; return -38; }
static inline int prospero_evdev_upload_rumble(int fd, int id, unsigned short s, unsigned short w, unsigned short l) { (void)fd; (void)id; (void)s; (void)w; (void)l; return -38; }
static inline int prospero_evdev_play(int fd, int id, int v) { (void)fd; (void)id; (void)v; return -38; }
static inline int prospero_evdev_erase(int fd, int id) { (void)fd; (void)id; return -38; }
static inline int prospero_uinput_create_rumble(const char *n) { (void)n; return -38; }
static inline int prospero_uinput_sysname(int fd, char *b, int l) { (void)fd; (void)b; (void)l; return -38; }
static inline int prospero_uinput_service(int fd, int *u, int *p, int *s) { (void)fd; (void)u; (void)p; (void)s; return -38; }
static inline void prospero_uinput_destroy(int fd) { (void)fd; }
#endif

#endif
