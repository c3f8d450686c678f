// JPEG / PNG encoding behind the flat C ABI of vc_image_encode.h.
#include "vc_image_encode.h"
#include "status_guard.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace {

vc_status encode(const char *ext, const std::vector<int> &params, const uint8_t *pixels, int32_t width,
                 int32_t height, int32_t stride, int32_t channels, uint8_t **out, size_t *out_len) {
    if (!out || !out_len) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    *out_len = 0;
    if (!pixels || width < 1 || height < 1 || width > 16384 || height > 16384 ||
        (channels != 1 && channels != 3) || stride < width * channels)
        return VC_ERR_INVALID_ARGUMENT;
    return vc_guarded([&]() -> vc_status {
        cv::Mat src(height, width, channels == 1 ? CV_8UC1 : CV_8UC3, const_cast<uint8_t *>(pixels), size_t(stride));
        cv::Mat bgr;
        if (channels == 3) cv::cvtColor(src, bgr, cv::COLOR_RGB2BGR); else bgr = src;
        std::vector<uint8_t> buf;
        if (!cv::imencode(ext, bgr, buf, params) || buf.empty()) return VC_ERR_INTERNAL;
        auto *mem = static_cast<uint8_t *>(std::malloc(buf.size()));
        if (!mem) return VC_ERR_OUT_OF_MEMORY;
        std::memcpy(mem, buf.data(), buf.size());
        *out = mem;
        *out_len = buf.size();
        return VC_OK;
    });
}

}  // namespace

extern "C" vc_status vc_encode_jpeg(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                                    int32_t channels, int32_t quality, uint8_t **out, size_t *out_len) {
    if (quality < 1 || quality > 100) return VC_ERR_INVALID_ARGUMENT;
    return encode(".jpg", {cv::IMWRITE_JPEG_QUALITY, quality, cv::IMWRITE_JPEG_OPTIMIZE, 1}, pixels, width,
                  height, stride, channels, out, out_len);
}

extern "C" vc_status vc_encode_png(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                                   int32_t channels, int32_t compression, uint8_t **out, size_t *out_len) {
    if (compression < 0 || compression > 9) return VC_ERR_INVALID_ARGUMENT;
    return encode(".png", {cv::IMWRITE_PNG_COMPRESSION, compression}, pixels, width, height, stride, channels,
                  out, out_len);
}

extern "C" void vc_encoded_free(uint8_t *buffer) { std::free(buffer); }
