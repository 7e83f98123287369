// zlib for Prospero's modules, as plain C functions over the system libz (headers from zlib1g-dev, which the
// Swift toolchain itself requires): raw DEFLATE for HiSynth's preset strings, zlib streams for Oberon's PNGs.
// Swift sees these functions and never zlib.h's macros.
#ifndef CZLIB_H
#define CZLIB_H

#include <stddef.h>
#include <stdint.h>

enum {
    CZLIB_OK = 0,
    /// The input is not a valid DEFLATE stream.
    CZLIB_CORRUPT = -1,
    /// The input ends before the stream's final block.
    CZLIB_TRUNCATED = -2,
    /// The output would exceed the caller's capacity.
    CZLIB_TOO_LARGE = -3,
    /// zlib could not allocate its state, or another internal failure.
    CZLIB_FAILED = -4,
};

/// Compresses `input` as raw DEFLATE (RFC 1951: no zlib header, no Adler-32) with level 5,
/// windowBits -15, memLevel 8 and the default strategy: the settings that reproduce Apple's
/// `NSData.compressed(using: .zlib)` byte for byte. Writes at most `capacity` bytes to `output`
/// and the count to `written`.
int czlib_deflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written);

/// Inflates one raw DEFLATE stream from `input` into `output`, never writing more than `capacity`
/// bytes (the cap that bounds a hostile stream). Bytes after the stream's final block are ignored.
int czlib_inflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written);

/// Compresses `count` bytes into a zlib stream (RFC 1950: header, DEFLATE, Adler-32) as PNG's IDAT
/// needs, at `level` 0…9. Writes at most `capacity` bytes and the count to `written`.
/// Returns 0 on success, -1 if the output did not fit, -2 on any other zlib failure.
int czlib_compress(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written, int level);

/// An output capacity that always suffices for `count` input bytes.
size_t czlib_bound(size_t count);

#endif
