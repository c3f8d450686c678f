// PNG to 8-bit gray with libpng directly, behind an error handler of our own.
#pragma once
#include <cstddef>
#include <cstdint>
#include "vc_common.h"

namespace vc {

// Decodes the PNG `data` (already probed: `width` x `height`) to gray into `out`
// (width*height bytes). libpng's errors become VC_ERR_DECODE with its message; its
// warnings are dropped: nothing is printed. The conversion is the one OpenCV's PNG
// decoder asks libpng for with IMREAD_GRAYSCALE, so pixels match cv::imdecode's.
vc_status decode_png_gray(const uint8_t *data, size_t len, int32_t width, int32_t height, uint8_t *out);

}  // namespace vc
