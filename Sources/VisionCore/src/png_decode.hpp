// PNG to 8-bit gray or RGB with libpng directly, behind an error handler of our own.
#pragma once
#include <cstddef>
#include <cstdint>
#include "vc_common.h"

namespace vc {

// Decodes the PNG `data` (already probed: `width` x `height`) into `out` with `channels`
// bytes a pixel (1: gray, width*height bytes; 3: RGB). libpng's errors become VC_ERR_DECODE
// with its message; its warnings are dropped: nothing is printed. The conversions are the
// ones OpenCV's PNG decoder asks libpng for with IMREAD_GRAYSCALE or IMREAD_COLOR, so
// pixels match cv::imdecode's (alpha dropped, 16 bits cut to 8, palettes expanded).
vc_status decode_png(const uint8_t *data, size_t len, int32_t width, int32_t height, int channels, uint8_t *out);

}  // namespace vc
