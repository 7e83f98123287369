#ifndef CHISYNTH_ZLIB_H
#define CHISYNTH_ZLIB_H

#include <stddef.h>
#include <stdint.h>

/// Outcomes of the raw-DEFLATE helpers (0 is success).
enum {
    CHISYNTH_ZLIB_OK = 0,
    /// The input is not a valid DEFLATE stream.
    CHISYNTH_ZLIB_CORRUPT = -1,
    /// The input ends before the stream's final block.
    CHISYNTH_ZLIB_TRUNCATED = -2,
    /// The output would exceed the caller's capacity.
    CHISYNTH_ZLIB_TOO_LARGE = -3,
    /// zlib could not allocate its state, or another internal failure.
    CHISYNTH_ZLIB_FAILED = -4,
};

/// Compresses `input` as raw DEFLATE (RFC 1951: no zlib header, no Adler-32) with level 5,
/// windowBits -15, memLevel 8 and the default strategy: the settings that reproduce Apple's
/// `NSData.compressed(using: .zlib)` byte for byte. Writes at most `capacity` bytes to `output`
/// and the count to `written`.
int chisynth_deflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written);

/// Inflates one raw DEFLATE stream from `input` into `output`, never writing more than `capacity`
/// bytes (the cap that bounds a hostile stream). Bytes after the stream's final block are ignored.
int chisynth_inflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written);

#endif
