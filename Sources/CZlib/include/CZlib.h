#ifndef CZLIB_H
#define CZLIB_H

#include <stddef.h>
#include <stdint.h>

/// Compresses `count` bytes into a zlib stream (RFC 1950: header, DEFLATE, Adler-32) as PNG's IDAT
/// needs, at `level` 0…9. Writes at most `capacity` bytes and the count to `written`.
/// Returns 0 on success, -1 if the output did not fit, -2 on any other zlib failure.
int czlib_compress(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written, int level);

/// An output capacity that always suffices for `count` input bytes.
size_t czlib_bound(size_t count);

#endif
