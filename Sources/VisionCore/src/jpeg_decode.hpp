// JPEG to 8-bit gray with libjpeg directly, behind an error manager of our own.
#pragma once
#include <cstddef>
#include <cstdint>
#include "vc_common.h"

namespace vc {

// Decodes the JPEG `data` (already probed: `width` x `height`) to gray into `out`
// (width*height bytes), as cv::imdecode(IMREAD_GRAYSCALE) does (libjpeg's own YCbCr ->
// gray, the same library), but nothing is printed and corrupt entropy-coded data is
// VC_ERR_DECODE instead of a warning on stderr and a smeared image. Four-component
// (CMYK) files return VC_ERR_UNSUPPORTED_FORMAT: the caller decodes those with OpenCV.
vc_status decode_jpeg_gray(const uint8_t *data, size_t len, int32_t width, int32_t height, uint8_t *out);

}  // namespace vc
