// OpenCV reads PNGs through libpng with libpng's default error and warning handlers,
// which print "libpng error: …" to stderr before OpenCV returns an empty image. A
// library must not write to its host's stderr, so PNGs are decoded here with handlers
// that turn errors into a status and drop warnings.
#include "png_decode.hpp"
#include "vc_guarded.hpp"
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <png.h>
#include <vector>

namespace {

struct Source {
    const uint8_t *data;
    size_t len;
    size_t pos;
};

struct Failure {
    char message[160];
};

void read_from_memory(png_structp png, png_bytep out, png_size_t n) {
    auto *src = static_cast<Source *>(png_get_io_ptr(png));
    if (n > src->len - src->pos) png_error(png, "the data ends inside the image");
    std::memcpy(out, src->data + src->pos, n);
    src->pos += n;
}

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
    auto *failure = static_cast<Failure *>(png_get_error_ptr(png));
    std::snprintf(failure->message, sizeof failure->message, "PNG does not decode: %s", message ? message : "");
    png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

}  // namespace

namespace vc {

vc_status decode_png(const uint8_t *data, size_t len, int32_t width, int32_t height, int channels, uint8_t *out) {
    if (channels != 1 && channels != 3) return fail(VC_ERR_INVALID_ARGUMENT, "channels must be 1 or 3");
    Failure failure{};
    Source source{data, len, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, on_error, on_warning);
    if (!png) return fail(VC_ERR_OUT_OF_MEMORY, "libpng could not start");
    png_infop info = png_create_info_struct(png);
    // Constructed before setjmp so a longjmp never skips a constructor; destroyed normally.
    std::vector<png_bytep> rows(static_cast<size_t>(height));
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        return fail(VC_ERR_DECODE, failure.message);
    }
    if (!info) png_error(png, "out of memory");
    png_set_read_fn(png, &source, read_from_memory);
    png_read_info(png, info);
    const int colour = png_get_color_type(png, info);
    const int depth = png_get_bit_depth(png, info);
    // The transformations OpenCV's PngDecoder requests for an 8-bit gray or colour result
    // (RGB order here, where OpenCV asks for BGR).
    if (depth == 16) png_set_strip_16(png);
    png_set_strip_alpha(png);
    if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if ((colour & PNG_COLOR_MASK_COLOR) == 0 && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (channels == 3 && (colour & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if (channels == 1 && ((colour & PNG_COLOR_MASK_COLOR) || colour == PNG_COLOR_TYPE_PALETTE))
        png_set_rgb_to_gray(png, 1, 0.299, 0.587);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (int32_t(png_get_image_width(png, info)) != width || int32_t(png_get_image_height(png, info)) != height ||
        png_get_rowbytes(png, info) != size_t(width) * size_t(channels))
        png_error(png, "the decoded layout does not match the header");
    for (int32_t y = 0; y < height; ++y) rows[size_t(y)] = out + size_t(y) * size_t(width) * size_t(channels);
    png_read_image(png, rows.data());
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
    return VC_OK;
}

}  // namespace vc
