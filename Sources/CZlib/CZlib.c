// See CZlib.h: raw DEFLATE (level 5, windowBits -15, memLevel 8: what Apple's NSData zlib compression writes)
// and zlib streams, over the system libz.
#include "CZlib.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

int czlib_deflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written) {
    *written = 0;
    if (count > UINT_MAX || capacity > UINT_MAX) return CZLIB_TOO_LARGE;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, 5, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return CZLIB_FAILED;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)count;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t produced = capacity - stream.avail_out;
    deflateEnd(&stream);
    if (status == Z_STREAM_END) {
        *written = produced;
        return CZLIB_OK;
    }
    return (status == Z_OK || status == Z_BUF_ERROR) ? CZLIB_TOO_LARGE : CZLIB_FAILED;
}

int czlib_inflate_raw(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written) {
    *written = 0;
    if (count > UINT_MAX || capacity > UINT_MAX) return CZLIB_TOO_LARGE;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -15) != Z_OK) return CZLIB_FAILED;
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
        result = CZLIB_OK;
        break;
    case Z_DATA_ERROR:
    case Z_NEED_DICT:
        result = CZLIB_CORRUPT;
        break;
    case Z_BUF_ERROR:
    case Z_OK:
        // Out of output space with input left, or input used up before the final block.
        result = (stream.avail_out == 0) ? CZLIB_TOO_LARGE : CZLIB_TRUNCATED;
        break;
    default:
        result = CZLIB_FAILED;
        break;
    }
    inflateEnd(&stream);
    return result;
}

int czlib_compress(const uint8_t *input, size_t count, uint8_t *output, size_t capacity, size_t *written, int level) {
    unsigned long length = (unsigned long)capacity;
    *written = 0;
    int status = compress2(output, &length, input, (uLong)count, level);
    if (status == Z_OK) {
        *written = (size_t)length;
        return 0;
    }
    return status == Z_BUF_ERROR ? -1 : -2;
}

size_t czlib_bound(size_t count) {
    return (size_t)compressBound((unsigned long)count);
}
