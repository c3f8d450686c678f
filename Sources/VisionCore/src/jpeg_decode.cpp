// OpenCV reads JPEGs through libjpeg with libjpeg's standard message handler, which
// prints "Corrupt JPEG data: …" to stderr and decodes damaged data anyway. A library must
// not write to its host's stderr, and a damaged frame must be an error, so JPEGs are
// decoded here with an error manager that records instead of printing.
#include "jpeg_decode.hpp"
#include "vc_guarded.hpp"
#include "jpeg_error_manager.hpp"
#include "exif_orientation.hpp"
#include <cstdio>
#include <vector>

namespace vc {

namespace {

// OpenCV's CMYK conversions (imgcodecs' icvCvt_CMYK2BGR / _CMYK2Gray), so that a CMYK
// photo gives the pixels it gave when OpenCV decoded it: libjpeg hands Adobe's inverted
// CMYK through, and each ink is scaled by the black.
inline int ink(int v, int k) { return k - ((255 - v) * k >> 8); }

void cmyk_row(const uint8_t *cmyk, int32_t width, int channels, uint8_t *out) {
    for (int32_t x = 0; x < width; ++x, cmyk += 4) {
        const int k = cmyk[3], r = ink(cmyk[0], k), g = ink(cmyk[1], k), b = ink(cmyk[2], k);
        if (channels == 3) {
            out[3 * x] = uint8_t(r); out[3 * x + 1] = uint8_t(g); out[3 * x + 2] = uint8_t(b);
        } else {
            // BT.601 weights in 14-bit fixed point, rounded (OpenCV's cR, cG, cB and descale).
            out[x] = uint8_t((b * 1868 + g * 9617 + r * 4899 + (1 << 13)) >> 14);
        }
    }
}

}  // namespace

vc_status decode_jpeg(const uint8_t *data, size_t len, int32_t width, int32_t height, int channels,
                      uint8_t *out, int *orientation) {
    if (channels != 1 && channels != 3) return fail(VC_ERR_INVALID_ARGUMENT, "channels must be 1 or 3");
    jpeg_decompress_struct cinfo{};
    JPEGErrorManager err{};
    err.install(cinfo);
    // Constructed before setjmp so a longjmp never skips a constructor.
    std::vector<uint8_t> cmyk;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        char message[JMSG_LENGTH_MAX + 32];
        std::snprintf(message, sizeof message, "JPEG does not decode: %s", err.message);
        return fail(VC_ERR_DECODE, message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(len));
    if (orientation) jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    if (orientation) {
        *orientation = 1;
        for (jpeg_saved_marker_ptr m = cinfo.marker_list; m; m = m->next) {
            if (m->marker != JPEG_APP0 + 1) continue;
            if (const int o = exif_orientation(m->data, m->data_length)) {
                *orientation = o;
                break;
            }
        }
    }
    const bool four = cinfo.num_components == 4;
    cinfo.out_color_space = four ? JCS_CMYK : channels == 3 ? JCS_EXT_RGB : JCS_GRAYSCALE;
    cinfo.out_color_components = four ? 4 : channels;
    jpeg_start_decompress(&cinfo);
    if (int32_t(cinfo.output_width) != width || int32_t(cinfo.output_height) != height ||
        cinfo.output_components != (four ? 4 : channels)) {
        jpeg_destroy_decompress(&cinfo);
        return fail(VC_ERR_DECODE, "decoded JPEG does not match its header");
    }
    if (four) cmyk.resize(size_t(width) * 4);
    const size_t stride = size_t(width) * size_t(channels);
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *dst = out + size_t(cinfo.output_scanline) * stride;
        JSAMPROW row = four ? cmyk.data() : dst;
        jpeg_read_scanlines(&cinfo, &row, 1);
        if (four) cmyk_row(cmyk.data(), width, channels, dst);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (err.corrupt) {
        char message[JMSG_LENGTH_MAX + 32];
        std::snprintf(message, sizeof message, "JPEG data is damaged: %s", err.message);
        return fail(VC_ERR_DECODE, message);
    }
    return VC_OK;
}

}  // namespace vc
