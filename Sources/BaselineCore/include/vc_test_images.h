#ifndef VC_TEST_IMAGES_H
#define VC_TEST_IMAGES_H
/* Synthetic images for tests and benchmarks (not used by the localization pipeline). */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Fills out (width*height bytes, caller-owned, stride = width) with a deterministic
 * textured scene for `seed`: overlapping shapes of many grey levels, fine stripes and
 * sensor-like noise, so corners appear all over the image. */
vc_status vc_test_texture(uint8_t *out, int32_t width, int32_t height, uint64_t seed);

/* Encodes a gray image (caller-owned) as JPEG (format 1, quality 1..100) or PNG (format 2)
 * into out (capacity bytes, caller-owned). *length receives the encoded size; when it
 * exceeds capacity the call returns VC_ERR_BUFFER_TOO_SMALL and writes nothing. */
vc_status vc_test_encode(const uint8_t *gray, int32_t width, int32_t height, int32_t format,
                         int32_t quality, uint8_t *out, size_t capacity, size_t *length);

#ifdef __cplusplus
}
#endif
#endif
