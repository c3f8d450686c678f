#ifndef VC_IMAGE_ENCODE_H
#define VC_IMAGE_ENCODE_H
/* Image encode to JPEG and PNG (libjpeg and libpng, with the settings cv::imencode used:
 * the same bytes it wrote). Deterministic: the same pixels and settings always give the
 * same bytes. */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Encodes 8-bit pixels (channels 1 = gray, 3 = RGB; `stride` bytes per row; caller-owned,
 * read only) as JPEG with quality 1..100 (optimised Huffman tables, 4:2:0 chroma).
 * On VC_OK, *out points to *out_len bytes owned by the caller: free with vc_encoded_free. */
vc_status vc_encode_jpeg(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                         int32_t channels, int32_t quality, uint8_t **out, size_t *out_len);

/* As vc_encode_jpeg, lossless PNG with zlib level `compression` 0..9. */
vc_status vc_encode_png(const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                        int32_t channels, int32_t compression, uint8_t **out, size_t *out_len);

/* Frees a buffer returned by vc_encode_jpeg / vc_encode_png; NULL is ignored. */
void vc_encoded_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif
#endif
