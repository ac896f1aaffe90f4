// zlib, as Debian ships it (zlib1g-dev), for MicroHTTP's compressed event streams.
//
// Swift does not import the function-like macro `deflateInit2`, which passes zlib's version and
// the size of `z_stream` for a consistency check; this `static inline` wrapper does.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit2` for raw deflate (no header or trailer: the caller writes the gzip framing, so
/// that it may splice in blocks deflated elsewhere) with the default strategy.
static inline int czlib_deflate_init_raw(z_stream *stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, -windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

/// `inflateInit2` accepting a gzip member (for tests and clients).
static inline int czlib_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
