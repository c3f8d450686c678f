#ifndef VC_IMAGE_H
#define VC_IMAGE_H
/* Image decode from memory: JPEG and PNG to 8-bit grayscale.
 * The header is parsed (and the size checked against a pixel budget) before any pixel is
 * decoded, so a small file that claims a huge image is refused without allocating it.
 * EXIF orientation is ignored on purpose: intrinsics describe the image as stored. */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum vc_image_format {
    VC_IMAGE_FORMAT_UNKNOWN = 0,
    VC_IMAGE_FORMAT_JPEG = 1,
    VC_IMAGE_FORMAT_PNG = 2
} vc_image_format;

typedef struct vc_image_info {
    int32_t width;
    int32_t height;
    int32_t format; /* vc_image_format */
} vc_image_info;

/* Default pixel budget used when max_pixels <= 0: 40 megapixels. */
#define VC_DEFAULT_MAX_PIXELS 40000000LL

/* Reads the JPEG/PNG header of `data` (len bytes, caller-owned, read only) into *info and
 * checks that the file is complete (JPEG: an end-of-image marker after the scan; PNG: the
 * chunk chain reaches IEND). Errors: VC_ERR_EMPTY_INPUT, VC_ERR_UNSUPPORTED_FORMAT,
 * VC_ERR_TRUNCATED, VC_ERR_DECODE (malformed header). */
vc_status vc_image_probe(const uint8_t *data, size_t len, vc_image_info *info);

/* Decodes `data` to 8-bit gray into the caller's buffer `out` (row-major, stride = width,
 * out_capacity bytes). The header is probed first: more than max_pixels pixels (or
 * VC_DEFAULT_MAX_PIXELS when max_pixels <= 0) gives VC_ERR_TOO_LARGE without decoding.
 * When out_capacity < width*height the call returns VC_ERR_BUFFER_TOO_SMALL with *info
 * filled, so the caller can size the buffer and call again. On VC_OK, *info holds the size.
 * Errors as vc_image_probe, plus VC_ERR_DECODE for pixel data that does not decode or is
 * damaged (libjpeg's "corrupt data" warnings count). Nothing is printed: libpng and libjpeg
 * run behind error handlers of our own. */
vc_status vc_image_decode_gray(const uint8_t *data, size_t len, int64_t max_pixels,
                               uint8_t *out, size_t out_capacity, vc_image_info *info);

#ifdef __cplusplus
}
#endif
#endif
