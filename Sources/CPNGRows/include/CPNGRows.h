#ifndef FLICKR_CPNGROWS_H
#define FLICKR_CPNGROWS_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a non-interlaced PNG one row at a time (libpng's simplified API
/// needs a buffer for the whole image), as 8-bit RGBA, and averages each
/// `factor`×`factor` square of pixels into one pixel of `out`
/// (`out_width`×`out_height`×4 bytes, alpha-weighted colours), so a huge
/// image costs one row and `out`, never its full size. Rows and columns past
/// `out_height`×`factor` and `out_width`×`factor` are read and checked but
/// not drawn. With `out` NULL every row (of every pass, when interlaced) is
/// read and checked, nothing kept.
///
/// Returns 1 on success; 0 with a reason in `message` (NUL-terminated)
/// when libpng refuses the file, or it is interlaced and `out` is not NULL.
int flickr_png_read_shrunk(const uint8_t *data, size_t size, uint32_t factor,
                           uint8_t *out, size_t out_width, size_t out_height,
                           char *message, size_t message_size);

#endif
