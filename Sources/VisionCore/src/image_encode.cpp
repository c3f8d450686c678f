// JPEG / PNG encoding behind the flat C ABI of vc_image_encode.h, on libjpeg and libpng
// directly with the settings cv::imencode used, so that the same pixels give the same
// bytes they gave through OpenCV (the shipped datasets were written that way) without
// linking OpenCV's image codecs, which bring in some 140 shared libraries (GDAL, DICOM,
// OpenEXR, ...) and a third of a second of dynamic linking to every process.
#include "vc_image_encode.h"
#include "jpeg_error_manager.hpp"
#include "status_guard.hpp"

#include <png.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

bool valid(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride, int32_t channels) {
    return pixels && width >= 1 && height >= 1 && width <= 16384 && height <= 16384 &&
           (channels == 1 || channels == 3) && stride >= width * channels;
}

// Hands the PNG's `bytes` to the caller as a malloc'd buffer (vc_encoded_free releases it).
vc_status hand_over(const std::vector<uint8_t> &bytes, uint8_t **out, size_t *out_len) {
    if (bytes.empty()) return VC_ERR_INTERNAL;
    auto *mem = static_cast<uint8_t *>(std::malloc(bytes.size()));
    if (!mem) return VC_ERR_OUT_OF_MEMORY;
    std::memcpy(mem, bytes.data(), bytes.size());
    *out = mem;
    *out_len = bytes.size();
    return VC_OK;
}

// Baseline JPEG as OpenCV's JpegEncoder writes it: libjpeg's defaults (4:2:0 chroma, JFIF
// header, integer DCT), the quality's tables limited to baseline values, Huffman tables
// optimised for the image. libjpeg's own malloc'd output buffer is handed to the caller.
vc_status encode_jpeg(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride, int32_t channels,
                      int32_t quality, uint8_t **out, size_t *out_len) {
    jpeg_compress_struct cinfo{};
    vc::JPEGErrorManager err{};
    err.install(cinfo);
    unsigned char *mem = nullptr;
    unsigned long mem_len = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        std::free(mem);
        return VC_ERR_INTERNAL;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &mem, &mem_len);
    cinfo.image_width = JDIMENSION(width);
    cinfo.image_height = JDIMENSION(height);
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = const_cast<uint8_t *>(pixels) + size_t(cinfo.next_scanline) * size_t(stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = mem;
    *out_len = mem_len;
    return VC_OK;
}

void append(png_structp png, png_bytep data, png_size_t n) {
    auto *bytes = static_cast<std::vector<uint8_t> *>(png_get_io_ptr(png));
    bytes->insert(bytes->end(), data, data + n);
}

[[noreturn]] void png_failed(png_structp png, png_const_charp) { png_longjmp(png, 1); }
void png_warned(png_structp, png_const_charp) {}

// 8-bit PNG as OpenCV's PngEncoder writes it given a compression level: zlib's default
// strategy at that level, libpng's adaptive filters.
vc_status encode_png(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride, int32_t channels,
                     int32_t level, std::vector<uint8_t> &bytes) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_failed, png_warned);
    if (!png) return VC_ERR_OUT_OF_MEMORY;
    png_infop info = png_create_info_struct(png);
    // Constructed before setjmp so a longjmp never skips a constructor.
    std::vector<png_bytep> rows(static_cast<size_t>(height));
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return VC_ERR_INTERNAL;
    }
    if (!info) png_error(png, "out of memory");
    png_set_write_fn(png, &bytes, append, nullptr);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, 0);  // Z_DEFAULT_STRATEGY
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8,
                 channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int32_t y = 0; y < height; ++y) rows[size_t(y)] = const_cast<uint8_t *>(pixels) + size_t(y) * size_t(stride);
    png_write_image(png, rows.data());
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return VC_OK;
}

}  // namespace

extern "C" vc_status vc_encode_jpeg(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                                    int32_t channels, int32_t quality, uint8_t **out, size_t *out_len) {
    if (!out || !out_len) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    *out_len = 0;
    if (!valid(pixels, width, height, stride, channels) || quality < 1 || quality > 100) return VC_ERR_INVALID_ARGUMENT;
    return vc_guarded([&] { return encode_jpeg(pixels, width, height, stride, channels, quality, out, out_len); });
}

extern "C" vc_status vc_encode_png(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                                   int32_t channels, int32_t compression, uint8_t **out, size_t *out_len) {
    if (!out || !out_len) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    *out_len = 0;
    if (!valid(pixels, width, height, stride, channels) || compression < 0 || compression > 9)
        return VC_ERR_INVALID_ARGUMENT;
    return vc_guarded([&]() -> vc_status {
        std::vector<uint8_t> bytes;
        const vc_status s = encode_png(pixels, width, height, stride, channels, compression, bytes);
        return s == VC_OK ? hand_over(bytes, out, out_len) : s;
    });
}

extern "C" void vc_encoded_free(uint8_t *buffer) { std::free(buffer); }
