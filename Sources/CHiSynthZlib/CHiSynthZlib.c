// A small shim over the system zlib (libz, part of every Debian install; headers in zlib1g-dev,
// which the Swift toolchain itself requires). Only the raw-DEFLATE calls HiSynth's preset
// strings need; Swift sees plain functions and never the zlib.h macros.
#include "CHiSynthZlib.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

int chisynth_deflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written) {
    *written = 0;
    if (count > UINT_MAX || capacity > UINT_MAX) return CHISYNTH_ZLIB_TOO_LARGE;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, 5, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return CHISYNTH_ZLIB_FAILED;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)count;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t produced = capacity - stream.avail_out;
    deflateEnd(&stream);
    if (status == Z_STREAM_END) {
        *written = produced;
        return CHISYNTH_ZLIB_OK;
    }
    return (status == Z_OK || status == Z_BUF_ERROR) ? CHISYNTH_ZLIB_TOO_LARGE : CHISYNTH_ZLIB_FAILED;
}

int chisynth_inflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written) {
    *written = 0;
    if (count > UINT_MAX || capacity > UINT_MAX) return CHISYNTH_ZLIB_TOO_LARGE;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -15) != Z_OK) return CHISYNTH_ZLIB_FAILED;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)count;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    // One call with all input: it returns at the stream's end, when the output is full, or on an error.
    int status = inflate(&stream, Z_FINISH);
    size_t produced = capacity - stream.avail_out;
    int result;
    switch (status) {
    case Z_STREAM_END:
        *written = produced;
        result = CHISYNTH_ZLIB_OK;
        break;
    case Z_DATA_ERROR:
    case Z_NEED_DICT:
        result = CHISYNTH_ZLIB_CORRUPT;
        break;
    case Z_BUF_ERROR:
    case Z_OK:
        // Out of output space with input left, or input used up before the final block.
        result = (stream.avail_out == 0) ? CHISYNTH_ZLIB_TOO_LARGE : CHISYNTH_ZLIB_TRUNCATED;
        break;
    default:
        result = CHISYNTH_ZLIB_FAILED;
        break;
    }
    inflateEnd(&stream);
    return result;
}
