// zlib for the keystroke floor benchmark (KeystrokeFloor): the main package's CZlib is not a
// product, so this package declares its own. `deflateInit2` is a macro Swift does not import.
#ifndef CZLIB_FLOOR_SHIM_H
#define CZLIB_FLOOR_SHIM_H

#include <zlib.h>

static inline int czlib_floor_deflate_init_raw(z_stream *stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, -windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

#endif
