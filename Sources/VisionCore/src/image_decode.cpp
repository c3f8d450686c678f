// JPEG/PNG header probing and grayscale decode into a caller buffer.
#include "vc_image.h"
#include "vc_guarded.hpp"
#include "jpeg_decode.hpp"
#include "png_decode.hpp"
#include <array>
#include <climits>
#include <cstring>

namespace {

uint32_t be16(const uint8_t *p) { return (uint32_t(p[0]) << 8) | p[1]; }
uint32_t be32(const uint8_t *p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

bool is_sof(uint8_t m) {
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

vc_status probe_jpeg(const uint8_t *d, size_t n, vc_image_info *info) {
    size_t i = 2;
    bool have_size = false;
    while (true) {
        // Find the next marker: 0xFF followed by a non-0xFF byte (0xFF fill bytes allowed).
        if (i >= n) return vc::fail(VC_ERR_TRUNCATED, "JPEG ends inside its header");
        if (d[i] != 0xFF) return vc::fail(VC_ERR_DECODE, "JPEG header: expected a marker");
        while (i < n && d[i] == 0xFF) ++i;
        if (i >= n) return vc::fail(VC_ERR_TRUNCATED, "JPEG ends inside its header");
        const uint8_t marker = d[i++];
        if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
        if (marker == 0xD9) return vc::fail(VC_ERR_DECODE, "JPEG ends before any scan");
        if (i + 2 > n) return vc::fail(VC_ERR_TRUNCATED, "JPEG ends inside a segment length");
        const size_t seglen = be16(d + i);
        if (seglen < 2) return vc::fail(VC_ERR_DECODE, "JPEG segment length is invalid");
        if (i + seglen > n) return vc::fail(VC_ERR_TRUNCATED, "JPEG ends inside a header segment");
        if (is_sof(marker)) {
            // One frame per file: libjpeg refuses a second SOF, and two readers taking
            // different ones would disagree about the size.
            if (have_size) return vc::fail(VC_ERR_DECODE, "JPEG has more than one frame header (SOF)");
            if (seglen < 8) return vc::fail(VC_ERR_DECODE, "JPEG frame header is too short");
            info->height = int32_t(be16(d + i + 3));
            info->width = int32_t(be16(d + i + 5));
            if (info->width == 0 || info->height == 0)
                return vc::fail(VC_ERR_DECODE, "JPEG frame header has a zero dimension");
            have_size = true;
        }
        if (marker == 0xDA) {  // start of scan: entropy-coded data follows
            if (!have_size) return vc::fail(VC_ERR_DECODE, "JPEG scan before frame header");
            // Entropy-coded data stuffs 0xFF as FF00, so an FFD9 after the first scan is the
            // end-of-image marker. Without it the file was cut short (libjpeg would silently
            // fill the rest with grey).
            const uint8_t *p = d + i + seglen;
            const uint8_t *end = d + n;
            while (p + 1 < end) {
                p = static_cast<const uint8_t *>(memchr(p, 0xFF, size_t(end - p) - 1));
                if (!p) break;
                if (p[1] == 0xD9) return VC_OK;
                ++p;
            }
            return vc::fail(VC_ERR_TRUNCATED, "JPEG has no end-of-image marker (truncated)");
        }
        i += seglen;
    }
}

// CRC-32 (ISO 3309, as PNG uses) of a chunk's type and data.
uint32_t png_crc(const uint8_t *p, size_t n) {
    static const auto table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

vc_status probe_png(const uint8_t *d, size_t n, vc_image_info *info) {
    if (n < 8 + 8 + 13 + 4) return vc::fail(VC_ERR_TRUNCATED, "PNG ends inside its header");
    if (std::memcmp(d + 12, "IHDR", 4) != 0 || be32(d + 8) != 13)
        return vc::fail(VC_ERR_DECODE, "PNG does not start with an IHDR chunk");
    const uint32_t w = be32(d + 16), h = be32(d + 20);
    if (w == 0 || h == 0 || w > 0x7FFFFFFFu || h > 0x7FFFFFFFu)
        return vc::fail(VC_ERR_DECODE, "PNG header has an invalid size");
    info->width = int32_t(w);
    info->height = int32_t(h);
    // Walk the chunk chain to IEND: a cut file ends inside a chunk.
    size_t i = 8;
    while (true) {
        if (i + 12 > n) return vc::fail(VC_ERR_TRUNCATED, "PNG ends before IEND (truncated)");
        const uint64_t len = be32(d + i);
        if (len > 0x7FFFFFFFu) return vc::fail(VC_ERR_DECODE, "PNG chunk length is invalid");
        if (i + 12 + size_t(len) > n) return vc::fail(VC_ERR_TRUNCATED, "PNG ends inside a chunk (truncated)");
        // Check every chunk's CRC here, so a damaged file is refused by the probe too
        // (validation reads only headers) and never reaches a decoder.
        if (png_crc(d + i + 4, 4 + size_t(len)) != be32(d + i + 8 + size_t(len)))
            return vc::fail(VC_ERR_DECODE, "PNG chunk has a bad CRC (damaged file)");
        if (std::memcmp(d + i + 4, "IEND", 4) == 0) return VC_OK;
        i += 12 + size_t(len);
    }
}

}  // namespace

extern "C" vc_status vc_image_probe(const uint8_t *data, size_t len, vc_image_info *info) {
    return vc::guarded([&]() -> vc_status {
        if (!info) return vc::fail(VC_ERR_INVALID_ARGUMENT, "info is NULL");
        *info = vc_image_info{0, 0, VC_IMAGE_FORMAT_UNKNOWN};
        if (!data || len == 0) return vc::fail(VC_ERR_EMPTY_INPUT, "no image bytes");
        static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
        if (len >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) {
            info->format = VC_IMAGE_FORMAT_JPEG;
            return probe_jpeg(data, len, info);
        }
        if (len >= 8 && std::memcmp(data, png_sig, 8) == 0) {
            info->format = VC_IMAGE_FORMAT_PNG;
            return probe_png(data, len, info);
        }
        if (len < 8) return vc::fail(VC_ERR_TRUNCATED, "too few bytes for an image header");
        return vc::fail(VC_ERR_UNSUPPORTED_FORMAT, "not a JPEG or PNG image");
    });
}

extern "C" vc_status vc_image_decode_gray(const uint8_t *data, size_t len, int64_t max_pixels,
                                          uint8_t *out, size_t out_capacity,
                                          vc_image_info *info) {
    return vc::guarded([&]() -> vc_status {
        if (!info) return vc::fail(VC_ERR_INVALID_ARGUMENT, "info is NULL");
        vc_status s = vc_image_probe(data, len, info);
        if (s != VC_OK) return s;
        if (len > size_t(INT32_MAX)) return vc::fail(VC_ERR_TOO_LARGE, "image file exceeds 2 GB");
        const int64_t budget = max_pixels > 0 ? max_pixels : VC_DEFAULT_MAX_PIXELS;
        const int64_t pixels = int64_t(info->width) * int64_t(info->height);
        if (pixels > budget)
            return vc::fail(VC_ERR_TOO_LARGE, "image has more pixels than allowed");
        if (!out || out_capacity < size_t(pixels))
            return vc::fail(VC_ERR_BUFFER_TOO_SMALL, "output buffer is smaller than width*height");
        if (info->format == VC_IMAGE_FORMAT_PNG) return vc::decode_png(data, len, info->width, info->height, 1, out);
        return vc::decode_jpeg(data, len, info->width, info->height, 1, out);
    });
}
