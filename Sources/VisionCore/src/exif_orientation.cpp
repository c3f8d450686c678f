// EXIF orientation: the few bytes of a TIFF directory a phone photo's upright needs.
#include "exif_orientation.hpp"
#include <cstring>
#include <opencv2/core.hpp>

namespace vc {

namespace {

struct TIFFReader {
    const uint8_t *d;
    size_t n;
    bool little;
    bool u16(size_t at, uint32_t &v) const {
        if (at > n || n - at < 2) return false;
        v = little ? uint32_t(d[at]) | uint32_t(d[at + 1]) << 8 : uint32_t(d[at]) << 8 | d[at + 1];
        return true;
    }
    bool u32(size_t at, uint32_t &v) const {
        uint32_t a, b;
        if (!u16(at, a) || !u16(at + 2, b)) return false;
        v = little ? a | b << 16 : a << 16 | b;
        return true;
    }
};

// The orientation in a TIFF block (the APP1 payload after "Exif\0\0"), or 1.
int orientation_in_tiff(const uint8_t *d, size_t n) {
    if (n < 8) return 1;
    TIFFReader r{d, n, d[0] == 'I' && d[1] == 'I'};
    if (!r.little && !(d[0] == 'M' && d[1] == 'M')) return 1;
    uint32_t ifd, count;
    if (!r.u32(4, ifd) || !r.u16(ifd, count)) return 1;
    for (uint32_t i = 0; i < count; ++i) {
        const size_t entry = size_t(ifd) + 2 + size_t(i) * 12;
        uint32_t tag, type, value;
        if (!r.u16(entry, tag) || !r.u16(entry + 2, type)) return 1;
        if (tag != 0x0112) continue;
        if (type != 3 || !r.u16(entry + 8, value)) return 1;  // SHORT, in the value field
        return value >= 1 && value <= 8 ? int(value) : 1;
    }
    return 1;
}

}  // namespace

int exif_orientation(const uint8_t *app1, size_t len) {
    if (!app1 || len < 6 || std::memcmp(app1, "Exif\0\0", 6) != 0) return 0;
    return orientation_in_tiff(app1 + 6, len - 6);
}

void apply_exif_orientation(cv::Mat &image, int orientation) {
    if (orientation < 2 || orientation > 8) return;
    if (orientation >= 5) cv::transpose(image, image);
    switch (orientation) {
    case 2: case 6: cv::flip(image, image, 1); break;
    case 3: case 7: cv::flip(image, image, -1); break;
    case 4: case 8: cv::flip(image, image, 0); break;
    default: break;  // 5: the transpose alone
    }
}

}  // namespace vc
