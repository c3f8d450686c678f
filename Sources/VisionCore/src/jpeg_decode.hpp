// JPEG to 8-bit gray or RGB with libjpeg directly, behind an error manager of our own.
#pragma once
#include <cstddef>
#include <cstdint>
#include "vc_common.h"

namespace vc {

// Decodes the JPEG `data` (already probed: `width` x `height`) into `out` with `channels`
// bytes a pixel (1: gray, width*height bytes; 3: RGB), as cv::imdecode does with
// IMREAD_GRAYSCALE or IMREAD_COLOR (libjpeg's own YCbCr conversions, the same library; a
// four-component file as OpenCV converts CMYK), but nothing is printed and corrupt
// entropy-coded data is VC_ERR_DECODE instead of a warning on stderr and a smeared image.
// With `orientation`, libjpeg also keeps the APP1 segments it reads past, and *orientation
// receives the first EXIF block's orientation tag (exif_orientation.hpp: 1...8, 1 when
// there is none), as imdecode reads it to turn a colour image upright.
vc_status decode_jpeg(const uint8_t *data, size_t len, int32_t width, int32_t height, int channels, uint8_t *out,
                      int *orientation = nullptr);

}  // namespace vc
