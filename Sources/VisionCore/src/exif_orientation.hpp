// The EXIF orientation of a JPEG, and turning decoded pixels upright by it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cv { class Mat; }

namespace vc {

// The orientation tag (0x0112) of the JPEG `data`'s EXIF block (APP1 "Exif", IFD0): 1...8,
// or 1 (as stored) when there is none or it cannot be read. Reads only the markers before
// the first scan, within `len`.
int jpeg_exif_orientation(const uint8_t *data, size_t len);

// Turns `image` upright for `orientation` (1...8; anything else leaves it), as OpenCV's
// imdecode does for IMREAD_COLOR: 2 mirrors, 3 turns half way, 4 flips, 5...8 transpose
// and then mirror, turn or flip.
void apply_exif_orientation(cv::Mat &image, int orientation);

}  // namespace vc
