// The two zlib calls Oberon's PNG writer needs, declared here rather than through zlib.h so a build
// needs only the system libz (libz.so.1, on every Debian and macOS install), not its -dev headers.
// The prototypes are zlib's stable ABI since 1.0 (uLong = unsigned long, Bytef = unsigned char).
#include "CZlib.h"

extern int compress2(unsigned char *dest, unsigned long *destLen, const unsigned char *source,
                     unsigned long sourceLen, int level);
extern unsigned long compressBound(unsigned long sourceLen);

#define CZLIB_Z_OK 0
#define CZLIB_Z_BUF_ERROR (-5)

int czlib_compress(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written, int level) {
    unsigned long length = (unsigned long)capacity;
    *written = 0;
    int status = compress2(output, &length, input, (unsigned long)count, level);
    if (status == CZLIB_Z_OK) {
        *written = (size_t)length;
        return 0;
    }
    return status == CZLIB_Z_BUF_ERROR ? -1 : -2;
}

size_t czlib_bound(size_t count) {
    return (size_t)compressBound((unsigned long)count);
}
