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

#ifdef __cplusplus
}
#endif
#endif
