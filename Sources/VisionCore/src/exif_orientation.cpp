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

int jpeg_exif_orientation(const uint8_t *data, size_t len) {
    if (!data || len < 4 || data[0] != 0xFF || data[1] != 0xD8) return 1;
    size_t i = 2;
    while (i + 4 <= len) {
        if (data[i] != 0xFF) return 1;
        const uint8_t marker = data[i + 1];
        if (marker == 0xFF) { ++i; continue; }  // fill byte
        if (marker == 0xDA || marker == 0xD9) return 1;  // the scan (or the end) comes first
        const size_t size = size_t(data[i + 2]) << 8 | data[i + 3];
        if (size < 2 || size > len - i - 2) return 1;
        const uint8_t *payload = data + i + 4;
        if (marker == 0xE1 && size >= 8 && std::memcmp(payload, "Exif\0\0", 6) == 0)
            return orientation_in_tiff(payload + 6, size - 8);
        i += 2 + size;
    }
    return 1;
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
