#include "CPNGRows.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// Where the read callback is in the bytes, and the error text for Swift.
struct reader {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *message;
    size_t message_size;
};

static void note(struct reader *reader, const char *text) {
    if (reader->message_size == 0) return;
    strncpy(reader->message, text ? text : "unknown error", reader->message_size - 1);
    reader->message[reader->message_size - 1] = 0;
}

/// libpng's errors must not return: keep the text, jump back to the setjmp.
static void on_error(png_structp png, png_const_charp text) {
    note(png_get_error_ptr(png), text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void on_read(png_structp png, png_bytep target, size_t count) {
    struct reader *reader = png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "Not enough image data");
    memcpy(target, reader->data + reader->offset, count);
    reader->offset += count;
}

/// One output row from the sums of `factor` source rows, rounded as
/// ImageShrinker rounds.
static void emit(const uint64_t *sums, uint8_t *row, size_t width, uint64_t area) {
    for (size_t x = 0; x < width; x++) {
        const uint64_t *sum = sums + x * 4;
        uint64_t alpha = sum[3];
        uint8_t *pixel = row + x * 4;
        if (alpha > 0) {
            pixel[0] = (uint8_t)((sum[0] + alpha / 2) / alpha);
            pixel[1] = (uint8_t)((sum[1] + alpha / 2) / alpha);
            pixel[2] = (uint8_t)((sum[2] + alpha / 2) / alpha);
        } else {
            pixel[0] = pixel[1] = pixel[2] = 0;
        }
        pixel[3] = (uint8_t)((alpha + area / 2) / area);
    }
}

int flickr_png_read_shrunk(const uint8_t *data, size_t size, uint32_t factor,
                           uint8_t *out, size_t out_width, size_t out_height,
                           char *message, size_t message_size) {
    struct reader reader = { data, size, 0, message, message_size };
    note(&reader, "");
    if (out != NULL && factor == 0) {
        note(&reader, "no scale factor");
        return 0;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, on_error, on_warning);
    if (png == NULL) {
        note(&reader, "libpng could not start");
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    // Freed on every way out, including a longjmp from libpng.
    png_bytep volatile row = NULL;
    uint64_t *volatile sums = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        free(row);
        free(sums);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return 0;
    }
    png_set_read_fn(png, &reader, on_read);
    png_read_info(png, info);
    // Checking alone reads an interlaced image's seven passes through the
    // one row too (the pixels come out scrambled, which nobody looks at).
    int passes = 1;
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        if (out != NULL) png_error(png, "interlaced");
        passes = png_set_interlace_handling(png);
    }
    // Every colour type and depth to 8-bit RGBA, as the simplified API does.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    size_t width = png_get_image_width(png, info);
    size_t height = png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) != width * 4) png_error(png, "unexpected row layout");
    if (out != NULL && (out_width * factor > width || out_height * factor > height)) {
        png_error(png, "output larger than the image");
    }
    row = malloc(width * 4);
    if (row == NULL) png_error(png, "out of memory");
    if (out != NULL) {
        sums = calloc(out_width * 4, sizeof(uint64_t));
        if (sums == NULL) png_error(png, "out of memory");
    }
    const uint64_t area = (uint64_t)factor * factor;
    for (size_t y = 0; y < height * (size_t)passes; y++) {
        png_read_row(png, row, NULL);
        if (out == NULL || y >= out_height * factor) continue;
        for (size_t x = 0; x < out_width * factor; x++) {
            const png_byte *pixel = row + x * 4;
            uint64_t *sum = sums + (x / factor) * 4;
            uint64_t weight = pixel[3];
            sum[0] += pixel[0] * weight;
            sum[1] += pixel[1] * weight;
            sum[2] += pixel[2] * weight;
            sum[3] += weight;
        }
        if ((y + 1) % factor == 0) {
            emit(sums, out + (y / factor) * out_width * 4, out_width, area);
            memset(sums, 0, out_width * 4 * sizeof(uint64_t));
        }
    }
    png_read_end(png, NULL);
    free(row);
    free(sums);
    png_destroy_read_struct(&png, &info, NULL);
    return 1;
}
