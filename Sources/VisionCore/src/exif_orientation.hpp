// The EXIF orientation of a JPEG, and turning decoded pixels upright by it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cv { class Mat; }

namespace vc {

// The orientation tag (0x0112) in the payload of a JPEG APP1 segment (`len` bytes after the
// segment's length field): 1...8, or 1 (as stored) when an EXIF block ("Exif\0\0", then a
// TIFF header) has none or it cannot be read; 0 when the segment is not an EXIF block
// (XMP, for one). decode_jpeg reads the segments with libjpeg and asks this of each APP1.
int exif_orientation(const uint8_t *app1, size_t len);

// Turns `image` upright for `orientation` (1...8; anything else leaves it), as OpenCV's
// imdecode does for IMREAD_COLOR: 2 mirrors, 3 turns half way, 4 flips, 5...8 transpose
// and then mirror, turn or flip.
void apply_exif_orientation(cv::Mat &image, int orientation);

}  // namespace vc
