// OpenCV reads JPEGs through libjpeg with libjpeg's standard message handler, which
// prints "Corrupt JPEG data: …" to stderr and decodes damaged data anyway. A library must
// not write to its host's stderr, and a damaged frame must be an error, so JPEGs are
// decoded here with an error manager that records instead of printing.
#include "jpeg_decode.hpp"
#include "vc_guarded.hpp"
#include <csetjmp>
#include <cstdio>
#include <jpeglib.h>
#include <jerror.h>

namespace {

struct ErrorManager {
    jpeg_error_mgr pub;  // first: libjpeg sees a jpeg_error_mgr*
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    bool corrupt;
};

[[noreturn]] void on_error(j_common_ptr cinfo) {
    auto *err = reinterpret_cast<ErrorManager *>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

// Warnings (level -1) are damaged data that libjpeg would smooth over: remember the
// first. Extraneous bytes before a marker are padding some encoders leave: harmless.
void on_message(j_common_ptr cinfo, int level) {
    auto *err = reinterpret_cast<ErrorManager *>(cinfo->err);
    if (level >= 0 || err->corrupt) return;
    if (cinfo->err->msg_code == JWRN_EXTRANEOUS_DATA) return;
    (*cinfo->err->format_message)(cinfo, err->message);
    err->corrupt = true;
}

void no_output(j_common_ptr) {}

}  // namespace

namespace vc {

vc_status decode_jpeg_gray(const uint8_t *data, size_t len, int32_t width, int32_t height, uint8_t *out) {
    jpeg_decompress_struct cinfo{};
    ErrorManager err{};
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    err.pub.emit_message = on_message;
    err.pub.output_message = no_output;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        char message[JMSG_LENGTH_MAX + 32];
        std::snprintf(message, sizeof message, "JPEG does not decode: %s", err.message);
        return fail(VC_ERR_DECODE, message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(len));
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.num_components == 4) {
        jpeg_destroy_decompress(&cinfo);
        return VC_ERR_UNSUPPORTED_FORMAT;
    }
    cinfo.out_color_space = JCS_GRAYSCALE;
    cinfo.out_color_components = 1;
    jpeg_start_decompress(&cinfo);
    if (int32_t(cinfo.output_width) != width || int32_t(cinfo.output_height) != height ||
        cinfo.output_components != 1) {
        jpeg_destroy_decompress(&cinfo);
        return fail(VC_ERR_DECODE, "decoded JPEG does not match its header");
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out + size_t(cinfo.output_scanline) * size_t(width);
        jpeg_read_scanlines(&cinfo, &row, 1);
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
